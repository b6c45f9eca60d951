import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import Database from 'better-sqlite3';
import { KitInputError } from '../input-error.js';
import { displayPath } from './input-file.js';
import { readSessionScript } from '../script/session-script.js';
import { readProjection } from '../projection/projection-file.js';
import { projectRequests } from '../projection/projection.js';
import { formatKnownFailures, readKnownFailures } from '../baseline/known-failures.js';
import { readStoreSnapshot } from '../store/store-snapshot.js';
import { readReproBundle } from '../repro/repro-bundle.js';

/**
 * Every reader of a file a user hands the kit, fed malformed versions of valid inputs: each must
 * read the file or refuse it with an input error that names the file, never fail otherwise.
 */

const dir = mkdtempSync(join(tmpdir(), 'kit-fuzz-'));
after(() => rmSync(dir, { recursive: true, force: true }));
let files = 0;

function fileWith(content: string | Uint8Array, name: string): string {
  const file = join(dir, `${++files}-${name}`);
  writeFileSync(file, content);
  return file;
}

function assertReadsOrNamesFile(read: () => unknown, file: string): void {
  try {
    read();
  } catch (error) {
    assert.ok(error instanceof KitInputError, `${file}: ${error instanceof Error ? error.stack : String(error)}`);
    assert.ok(error.message.startsWith(displayPath(file)), `the error names the file: ${error.message}`);
    assert.ok(!error.message.includes('\n'), `one line: ${error.message}`);
  }
}

/** A JSON document changed where it hurts: a value swapped for another anywhere in the tree. */
function mutatedJson(valid: unknown) {
  const paths: (string | number)[][] = [];
  const walk = (value: unknown, path: (string | number)[]) => {
    paths.push(path);
    if (Array.isArray(value)) for (const [i, item] of value.entries()) walk(item, [...path, i]);
    else if (value && typeof value === 'object')
      for (const [key, item] of Object.entries(value)) walk(item, [...path, key]);
  };
  walk(valid, []);
  const odd = fc.oneof(
    fc.jsonValue(),
    fc.constantFrom(
      null,
      -1,
      0,
      1e15,
      '',
      '..',
      '/etc/passwd',
      '__proto__',
      'constructor',
      [],
      {},
      'x'.repeat(300),
      '\u0000',
    ),
  );
  return fc.tuple(fc.constantFrom(...paths), odd, fc.boolean()).map(([path, replacement, remove]) => {
    const copy = structuredClone(valid) as Record<string | number, unknown>;
    if (path.length === 0) return replacement;
    const parent = path
      .slice(0, -1)
      .reduce<Record<string | number, unknown>>((node, key) => node[key] as Record<string | number, unknown>, copy);
    const key = path.at(-1)!;
    if (remove && !Array.isArray(parent)) delete parent[key];
    else parent[key] = replacement;
    return copy;
  });
}

/** A text broken at the byte level: cut short, spliced with junk, or with bytes that are not UTF-8. */
function mutatedText(valid: string) {
  const bytes = Buffer.from(valid);
  return fc.oneof(
    fc.nat(bytes.length).map((end) => bytes.subarray(0, end)),
    fc
      .tuple(fc.nat(bytes.length), fc.uint8Array({ maxLength: 8 }))
      .map(([at, junk]) => Buffer.concat([bytes.subarray(0, at), junk, bytes.subarray(at)])),
    fc
      .tuple(fc.nat(bytes.length), fc.string({ maxLength: 8 }))
      .map(([at, text]) => Buffer.concat([bytes.subarray(0, at), Buffer.from(text), bytes.subarray(at)])),
  );
}

const json = (value: unknown) => JSON.stringify(value, null, 2);

/** One seed, so a run is repeatable; KIT_FUZZ_SEED explores others. */
const FUZZ_SEED = Number(process.env.KIT_FUZZ_SEED ?? 20261122);

function fuzzJsonReader(name: string, valid: unknown, read: (file: string) => unknown, runs = 150): void {
  test(`${name}: every malformed version is read or refused naming the file`, () => {
    fc.assert(
      fc.property(fc.oneof(mutatedJson(valid).map(json), mutatedText(json(valid))), (content) => {
        const file = fileWith(content, `${name}.json`);
        assertReadsOrNamesFile(() => read(file), file);
      }),
      { numRuns: runs, seed: FUZZ_SEED },
    );
  });
}

fuzzJsonReader(
  'session script',
  {
    ...JSON.parse(readFileSync('fixtures/scripts/workspace-and-recording.json', 'utf8')),
    runtime: { now: '2026-01-15T09:00:00Z', model: 'kit-model' },
    profile: 'core',
    dialect: 'openai-chat',
    session: 's1',
  },
  (file) => readSessionScript(file),
);

fuzzJsonReader(
  'projection',
  projectRequests(
    [1, 2].map((index) => ({
      index,
      body: {},
      model: 'm',
      baseline: ['be brief'],
      messages: [{ role: 'user' as const, text: `hi ${index}` }],
      tools: ['echo'],
    })),
    'script.json',
    'reference 0.1.0 (typescript)',
  ),
  (file) => readProjection(file),
);

fuzzJsonReader(
  'repro bundle',
  {
    format: 'kit-repro-bundle/1',
    scenario: {
      id: 'inb-admission-4',
      name: 'x',
      uri: 'features/inbox/Admission1.feature',
      line: 30,
      rules: ['INB-02'],
    },
    runtime: { module: 'fixtures/runtimes/ignores-message-ids.ts' },
    failure: 'expected m1',
    sessions: [{ name: 's1', id: 's1' }],
  },
  (file) => readReproBundle(file),
);

test('baseline: every malformed version is read or refused naming the file', () => {
  const suite = new Set(['inb-a', 'inb-b']);
  const valid = formatKnownFailures([
    { id: 'inb-a', class: 'deviation', reason: 'slow store', comment: 'INB-01 features/x.feature:1 [1] a' },
    { id: 'inb-b', class: 'not-implemented', reason: 'its own IDs', comment: 'INB-02 features/x.feature:3 [2] b' },
  ]);
  const yamlish = fc.constantFrom(
    '!tag ',
    '%YAML 1.1\n---\n',
    '&a ',
    '*a',
    '<<: *a\n',
    '? ',
    '- ',
    '"',
    "'",
    ': ',
    '\t',
    '\n  ',
    '{',
    '[',
    '|',
    '>',
  );
  const spliced = fc
    .tuple(fc.nat(valid.length), yamlish)
    .map(([at, piece]) => valid.slice(0, at) + piece + valid.slice(at));
  fc.assert(
    fc.property(fc.oneof(spliced, mutatedText(valid)), (content) => {
      const file = fileWith(content, 'known-failures.yaml');
      assertReadsOrNamesFile(() => readKnownFailures(file, suite), file);
    }),
    { numRuns: 300, seed: FUZZ_SEED },
  );
});

test('store: damaged databases and rows are read or refused naming the file', () => {
  const store = join(dir, 'valid-store');
  mkdirSync(store);
  const db = new Database(join(store, 'runtime.sqlite'));
  db.exec(`
    CREATE TABLE sessions (id TEXT PRIMARY KEY, location TEXT, created_at TEXT, last_seq INTEGER);
    CREATE TABLE events (session_id TEXT, seq INTEGER, type TEXT, data TEXT, at TEXT);
    CREATE TABLE inbox (message_id TEXT, session_id TEXT, prompt TEXT, delivery TEXT, admitted_seq INTEGER, promoted_seq INTEGER);
    CREATE TABLE messages (id TEXT, session_id TEXT, seq INTEGER, role TEXT, hidden INTEGER, status TEXT, body TEXT);
    CREATE TABLE context_epochs (session_id TEXT, baseline TEXT, snapshot TEXT);
    INSERT INTO sessions VALUES ('s1', '/w', '2026-01-15T09:00:00.000Z', 3);
    INSERT INTO events VALUES ('s1', 1, 'session.created', '{"type":"session.created"}', '2026-01-15T09:00:00.000Z');
    INSERT INTO inbox VALUES ('m1', 's1', '{"parts":[{"type":"text","text":"hi"}]}', 'steer', 2, 3);
    INSERT INTO messages VALUES ('m1', 's1', 3, 'user', 0, 'completed', '{"parts":[{"type":"text","text":"hi"}]}');
    INSERT INTO context_epochs VALUES ('s1', '["be brief"]', '{}');
  `);
  db.close();
  const valid = readFileSync(join(store, 'runtime.sqlite'));
  const damaged = fc.oneof(
    fc.nat(valid.length).map((end) => valid.subarray(0, end)),
    // Mostly past the first page, which SQLite reads on opening: damage found only by a later query.
    fc
      .tuple(
        fc.oneof(fc.nat(valid.length - 1), fc.integer({ min: 4096, max: valid.length - 1 })),
        fc.uint8Array({ minLength: 1, maxLength: 512 }),
      )
      .map(([at, junk]) => {
        const copy = Buffer.from(valid);
        copy.set(junk.subarray(0, copy.length - at), at);
        return copy;
      }),
  );
  fc.assert(
    fc.property(damaged, (bytes) => {
      const file = fileWith(bytes, 'runtime.sqlite');
      assertReadsOrNamesFile(() => readStoreSnapshot(file), file);
    }),
    { numRuns: 150, seed: FUZZ_SEED },
  );
  const columns = [
    'events.data',
    'inbox.prompt',
    'messages.body',
    'context_epochs.baseline',
    'context_epochs.snapshot',
  ];
  fc.assert(
    fc.property(
      fc.constantFrom(...columns),
      fc.oneof(fc.string(), fc.constant('{'), fc.constant('[[[')),
      (column, value) => {
        const file = fileWith(valid, 'runtime.sqlite');
        const [table, name] = column.split('.');
        const edit = new Database(file);
        edit.prepare(`UPDATE ${table} SET ${name} = ?`).run(value);
        edit.close();
        assertReadsOrNamesFile(() => readStoreSnapshot(file), file);
      },
    ),
    { numRuns: 60, seed: FUZZ_SEED },
  );
});
