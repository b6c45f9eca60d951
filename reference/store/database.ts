import Database from 'better-sqlite3';
import { SESSIONS_SCHEMA } from '../session/session-projection.js';
import { INBOX_SCHEMA } from '../inbox/inbox-projection.js';
import { MESSAGES_SCHEMA } from '../history/history-projection.js';
import { DISCOVERED_INSTRUCTIONS_SCHEMA } from '../context/nested-instructions-projection.js';
import { CONTEXT_EPOCHS_SCHEMA } from '../context/epoch-projection.js';
import { SAVED_APPROVALS_SCHEMA } from '../agents/saved-approvals.js';

export type Db = Database.Database;

/** Prepares each statement once per connection: preparing costs more than running most of them. */
export interface Statements {
  prepare: Db['prepare'];
}

export function preparedOnce(db: Db): Statements {
  const prepared = new Map<string, Database.Statement>();
  const prepare = (sql: string) => {
    let statement = prepared.get(sql);
    if (!statement) {
      statement = db.prepare(sql);
      prepared.set(sql, statement);
    }
    return statement;
  };
  return { prepare: prepare as Db['prepare'] };
}

/**
 * The whole durable state of the runtime: the event log, and each area's projection of it, written
 * in the same transaction as the event that changes it. Sessions come first: the rest refer to them.
 */
const SCHEMA = [
  SESSIONS_SCHEMA,
  `
CREATE TABLE IF NOT EXISTS events (
  session_id TEXT NOT NULL REFERENCES sessions(id),
  seq INTEGER NOT NULL,
  type TEXT NOT NULL,
  data TEXT NOT NULL,
  at TEXT NOT NULL,
  PRIMARY KEY (session_id, seq)
);
`,
  INBOX_SCHEMA,
  MESSAGES_SCHEMA,
  DISCOVERED_INSTRUCTIONS_SCHEMA,
  CONTEXT_EPOCHS_SCHEMA,
  SAVED_APPROVALS_SCHEMA,
].join('');

/**
 * Synchronous NORMAL comes first, so that switching a new file to WAL syncs less; the schema is
 * created in one transaction, which writes and locks each page once rather than once per table.
 */
export function openDatabase(file: string): Db {
  const db = new Database(file);
  db.pragma('synchronous = NORMAL');
  db.pragma('journal_mode = WAL');
  db.pragma('foreign_keys = ON');
  db.transaction(() => db.exec(SCHEMA))();
  return db;
}
