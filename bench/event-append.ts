import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cpuMs } from './cpu-time.js';
import { openDatabase, type Db } from '../reference/store/database.js';
import { EventLog } from '../reference/store/event-log.js';
import { systemClock } from '../reference/clock.js';
import type { SessionEvent } from '../reference/events/session-event.js';

/**
 * What the reference's durable append costs: EventLog.append of one admitted prompt per
 * transaction (sequence number, event row and inbox projection) against the same three
 * statements prepared by hand and run in a transaction of raw better-sqlite3, on the same schema.
 */
const APPENDS = Number(process.env.BENCH_APPENDS ?? 20_000);

const admitted = (i: number): SessionEvent => ({
  type: 'prompt.admitted',
  messageId: `m${i}`,
  delivery: 'queue',
  prompt: { parts: [{ type: 'text', text: `prompt ${i}: dolor sit amet` }] },
});

function withDatabase(work: (db: Db) => void): number {
  const dir = mkdtempSync(join(process.env.KIT_TMPDIR || tmpdir(), 'kit-bench-append-'));
  const db = openDatabase(join(dir, 'store.db'));
  try {
    db.prepare("INSERT INTO sessions (id, location, project_root, created_at) VALUES ('s1', '/w', '/w', 'now')").run();
    return cpuMs(() => work(db));
  } finally {
    db.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

export function measureEventAppend(): { appendMs: number; rawMs: number } {
  const rawMs = withDatabase((db) => {
    const nextSeq = db.prepare<[string], { last_seq: number }>(
      'UPDATE sessions SET last_seq = last_seq + 1 WHERE id = ? RETURNING last_seq',
    );
    const insert = db.prepare('INSERT INTO events (session_id, seq, type, data, at) VALUES (?, ?, ?, ?, ?)');
    const inbox = db.prepare(
      'INSERT INTO inbox (message_id, session_id, prompt, delivery, admitted_seq) VALUES (?, ?, ?, ?, ?)',
    );
    const append = db.transaction((event: Extract<SessionEvent, { type: 'prompt.admitted' }>) => {
      const seq = nextSeq.get('s1')!.last_seq;
      insert.run('s1', seq, event.type, JSON.stringify(event), new Date().toISOString());
      inbox.run(event.messageId, 's1', JSON.stringify(event.prompt), event.delivery, seq);
    });
    for (let i = 0; i < APPENDS; i++) append(admitted(i) as Extract<SessionEvent, { type: 'prompt.admitted' }>);
  });
  const appendMs = withDatabase((db) => {
    const log = new EventLog(db, systemClock);
    for (let i = 0; i < APPENDS; i++) log.append('s1', [admitted(i)]);
  });
  return { appendMs, rawMs };
}
