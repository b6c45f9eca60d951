import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { readStoreSnapshot } from './store-snapshot.js';

const root = mkdtempSync(join(tmpdir(), 'kit-store-test-'));
after(() => rmSync(root, { recursive: true, force: true }));

/** A store with the reference runtime's tables (as far as the kit reads them), changed by `sql`. */
function store(name: string, sql = ''): string {
  const dir = join(root, name);
  mkdirSync(dir);
  const db = new Database(join(dir, 'runtime.sqlite'));
  db.pragma('journal_mode = WAL');
  db.exec(`
    CREATE TABLE sessions (id TEXT PRIMARY KEY, location TEXT, project_root TEXT, created_at TEXT, last_seq INTEGER);
    CREATE TABLE events (session_id TEXT, seq INTEGER, type TEXT, data TEXT, at TEXT);
    CREATE TABLE inbox (message_id TEXT, session_id TEXT, prompt TEXT, delivery TEXT, admitted_seq INTEGER, promoted_seq INTEGER);
    CREATE TABLE messages (id TEXT, session_id TEXT, seq INTEGER, role TEXT, hidden INTEGER, status TEXT, body TEXT);
    INSERT INTO sessions VALUES ('s1', '/w', '/w', '2026-01-15T09:00:00.000Z', 3);
    INSERT INTO events VALUES ('s1', 1, 'session.created', '{"type":"session.created","location":"/w"}', '2026-01-15T09:00:00.000Z');
    INSERT INTO inbox VALUES ('m1', 's1', '{"parts":[{"type":"text","text":"hi"}]}', 'steer', 2, 3);
    INSERT INTO messages VALUES ('m1', 's1', 3, 'user', 0, 'completed', '{"parts":[{"type":"text","text":"hi"}]}');
    ${sql}
  `);
  db.close();
  return dir;
}

test('a store reads as sessions with their events, inbox and history, columns in camelCase', () => {
  const snapshot = readStoreSnapshot(store('good'));
  assert.equal(snapshot.sessions.length, 1);
  const [session] = snapshot.sessions;
  assert.equal(session!.projectRoot, '/w');
  assert.equal(session!.lastSeq, 3);
  assert.deepEqual(session!.events, [
    {
      seq: 1,
      type: 'session.created',
      data: { type: 'session.created', location: '/w' },
      at: '2026-01-15T09:00:00.000Z',
    },
  ]);
  assert.deepEqual(session!.inbox[0], {
    messageId: 'm1',
    prompt: { parts: [{ type: 'text', text: 'hi' }] },
    delivery: 'steer',
    admittedSeq: 2,
    promotedSeq: 3,
  });
  assert.equal(session!.history[0]!.hidden, false);
  assert.equal(session!.epoch, null);
});

test("a session's context epoch reads with its baseline parts and snapshot parsed", () => {
  const dir = store(
    'epoch',
    `CREATE TABLE context_epochs (session_id TEXT, baseline TEXT, snapshot TEXT); INSERT INTO context_epochs VALUES ('s1', '["be brief"]', '{"keys":[]}');`,
  );
  assert.deepEqual(readStoreSnapshot(dir).sessions[0]!.epoch, { baseline: ['be brief'], snapshot: { keys: [] } });
});

test('a store is opened read-only: reading it changes nothing', () => {
  const dir = store('untouched');
  readStoreSnapshot(join(dir, 'runtime.sqlite'));
  const db = new Database(join(dir, 'runtime.sqlite'), { readonly: true });
  assert.equal((db.prepare('SELECT count(*) AS n FROM sessions').get() as { n: number }).n, 1);
  db.close();
});

test('--session keeps one session', () => {
  assert.equal(readStoreSnapshot(store('one'), 'nobody').sessions.length, 0);
});

for (const [what, make, expected] of [
  ['a missing file', () => join(root, 'absent'), /absent\/runtime\.sqlite: no such file|absent: no such file/],
  [
    'a file that is not SQLite',
    () => {
      writeFileSync(join(root, 'text.sqlite'), 'hello, I am text');
      return join(root, 'text.sqlite');
    },
    /text\.sqlite: not a SQLite database/,
  ],
  [
    'a missing table',
    () => store('no-inbox', 'DROP TABLE inbox;'),
    /runtime\.sqlite: no table "inbox": not a reference runtime store/,
  ],
  [
    'a missing column',
    () => store('no-body', 'ALTER TABLE messages DROP COLUMN body;'),
    /table "messages" has no column "body"/,
  ],
  [
    'an epoch baseline that is not JSON',
    () =>
      store(
        'bad-baseline',
        `CREATE TABLE context_epochs (session_id TEXT, baseline TEXT, snapshot TEXT); INSERT INTO context_epochs VALUES ('s1', 'be brief', '{}');`,
      ),
    /context_epochs \(session s1\): column "baseline" is not JSON/,
  ],
  [
    'a store with a damaged page',
    () => {
      const dir = store(
        'corrupt',
        `INSERT INTO events SELECT session_id, seq + 1, type, data || '${'x'.repeat(3000)}', at FROM events;`,
      );
      const file = join(dir, 'runtime.sqlite');
      const bytes = readFileSync(file);
      bytes.fill(0xa5, 4096, bytes.length);
      writeFileSync(file, bytes);
      return dir;
    },
    /runtime\.sqlite: cannot be read: .*\(SQLITE_(CORRUPT|NOTADB)\)$/,
  ],
  [
    'a directory where the database should be',
    () => {
      mkdirSync(join(root, 'nested', 'runtime.sqlite'), { recursive: true });
      return join(root, 'nested');
    },
    /runtime\.sqlite: is not a regular file/,
  ],
  [
    'a row that is not JSON',
    () => store('bad-json', "UPDATE events SET data = '{oops' WHERE seq = 1;"),
    /events \(session s1, seq 1\): column "data" is not JSON/,
  ],
] as const) {
  test(`${what} is refused in one line naming the store`, () => {
    assert.throws(
      () => readStoreSnapshot(make()),
      (error: Error) => error.name === 'KitInputError' && expected.test(error.message) && !error.message.includes('\n'),
    );
  });
}
