import Database from 'better-sqlite3';

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
 * The whole durable state of the runtime. Every table except `events` is a projection of the
 * event log, written in the same transaction as the event that changes it.
 */
const SCHEMA = `
CREATE TABLE IF NOT EXISTS sessions (
  id TEXT PRIMARY KEY,
  location TEXT NOT NULL,
  project_root TEXT NOT NULL,
  compaction_requested INTEGER NOT NULL DEFAULT 0,
  agent TEXT,
  model TEXT,
  created_at TEXT NOT NULL,
  last_seq INTEGER NOT NULL DEFAULT 0
);
CREATE TABLE IF NOT EXISTS events (
  session_id TEXT NOT NULL REFERENCES sessions(id),
  seq INTEGER NOT NULL,
  type TEXT NOT NULL,
  data TEXT NOT NULL,
  at TEXT NOT NULL,
  PRIMARY KEY (session_id, seq)
);
CREATE TABLE IF NOT EXISTS inbox (
  message_id TEXT PRIMARY KEY,
  session_id TEXT NOT NULL REFERENCES sessions(id),
  prompt TEXT NOT NULL,
  delivery TEXT NOT NULL CHECK (delivery IN ('steer', 'queue')),
  admitted_seq INTEGER NOT NULL,
  promoted_seq INTEGER
);
CREATE INDEX IF NOT EXISTS inbox_pending ON inbox (session_id, promoted_seq, admitted_seq);
CREATE TABLE IF NOT EXISTS messages (
  id TEXT PRIMARY KEY,
  session_id TEXT NOT NULL REFERENCES sessions(id),
  seq INTEGER NOT NULL,
  role TEXT NOT NULL CHECK (role IN ('user', 'assistant', 'tool', 'system', 'compaction')),
  hidden INTEGER NOT NULL DEFAULT 0,
  status TEXT NOT NULL,
  body TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS messages_in_order ON messages (session_id, seq);
CREATE TABLE IF NOT EXISTS discovered_instructions (
  session_id TEXT NOT NULL REFERENCES sessions(id),
  path TEXT NOT NULL,
  discovered_seq INTEGER NOT NULL,
  PRIMARY KEY (session_id, path)
);
CREATE TABLE IF NOT EXISTS context_epochs (
  session_id TEXT PRIMARY KEY REFERENCES sessions(id),
  baseline TEXT NOT NULL,
  snapshot TEXT NOT NULL,
  -- Set by a completed compaction: the next provider attempt renders a fresh baseline.
  replacement_pending INTEGER NOT NULL DEFAULT 0
);
`;

export function openDatabase(file: string): Db {
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.pragma('foreign_keys = ON');
  db.exec(SCHEMA);
  return db;
}
