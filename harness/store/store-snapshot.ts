import { existsSync, statSync } from 'node:fs';
import Database from 'better-sqlite3';
import { KitInputError } from '../input-error.js';
import { displayPath } from '../input/input-file.js';
import { storeFile } from './store-location.js';

/**
 * The durable state of a reference runtime store, read from its SQLite tables as they are. The
 * kit does not use the reference runtime's code for this: it reads what the store holds.
 */
export interface StoreSnapshot {
  store: string;
  sessions: SessionSnapshot[];
}

/** A session's row (every column, in camelCase) with its events, inbox, history and context epoch. */
export type SessionSnapshot = Row & {
  id: string;
  events: Row[];
  inbox: Row[];
  history: Row[];
  epoch: Row | null;
};

type Row = Record<string, unknown>;

/** The tables and columns the kit reads; other columns are shown as they are. */
const TABLES = {
  sessions: ['id', 'location', 'created_at', 'last_seq'],
  events: ['session_id', 'seq', 'type', 'data', 'at'],
  inbox: ['message_id', 'session_id', 'prompt', 'delivery', 'admitted_seq', 'promoted_seq'],
  messages: ['id', 'session_id', 'seq', 'role', 'hidden', 'status', 'body'],
} as const;
/** Newer stores keep each session's context epoch; older ones have no such table. */
const EPOCHS = ['session_id', 'baseline', 'snapshot'] as const;

/** Opens `path` (the store directory or its `runtime.sqlite`, or a directory a run kept) read-only and reads it whole. */
export function readStoreSnapshot(path: string, onlySession?: string): StoreSnapshot {
  const file = storeFile(path);
  const name = displayPath(file);
  if (!existsSync(file))
    throw new KitInputError(
      name,
      'no such file (give a store directory or its runtime.sqlite, or a directory a kit run kept)',
    );
  if (!statSync(file).isFile())
    throw new KitInputError(name, 'is not a regular file (give a store directory or its runtime.sqlite)');
  let db: Database.Database;
  try {
    db = new Database(file, { readonly: true, fileMustExist: true });
  } catch (error) {
    throw new KitInputError(name, `cannot open: ${(error as Error).message}`);
  }
  try {
    return readSessions(db, name, onlySession);
  } catch (error) {
    // A damaged page shows only when a query reaches it.
    if (error instanceof Database.SqliteError)
      throw new KitInputError(name, `cannot be read: ${error.message} (${error.code})`);
    throw error;
  } finally {
    db.close();
  }
}

function readSessions(db: Database.Database, name: string, onlySession: string | undefined): StoreSnapshot {
  const present = tablesOf(db, name);
  for (const [table, columns] of Object.entries(TABLES)) requireColumns(db, name, table, columns, present);
  const hasEpochs = present.has('context_epochs');
  if (hasEpochs) requireColumns(db, name, 'context_epochs', EPOCHS, present);
  const json = jsonReader(name);
  const sessions = db.prepare('SELECT * FROM sessions ORDER BY created_at, id').all() as Row[];
  return {
    store: name,
    sessions: sessions
      .filter((session) => onlySession === undefined || session.id === onlySession)
      .map((session): SessionSnapshot => {
        const id = String(session.id);
        const rows = (sql: string) => db.prepare(sql).all(id) as Row[];
        const epoch = hasEpochs
          ? (db.prepare('SELECT baseline, snapshot FROM context_epochs WHERE session_id = ?').get(id) as
              | Row
              | undefined)
          : undefined;
        return {
          ...camel(session),
          id,
          events: rows('SELECT * FROM events WHERE session_id = ? ORDER BY seq').map((row) =>
            json(row, 'data', `events (session ${id}, seq ${row.seq})`),
          ),
          inbox: rows('SELECT * FROM inbox WHERE session_id = ? ORDER BY admitted_seq').map((row) =>
            json(row, 'prompt', `inbox (session ${id}, message ${row.message_id})`),
          ),
          history: rows('SELECT * FROM messages WHERE session_id = ? ORDER BY seq').map((row) =>
            json({ ...row, hidden: Boolean(row.hidden) }, 'body', `messages (session ${id}, seq ${row.seq})`),
          ),
          epoch: epoch
            ? json(
                json(epoch, 'baseline', `context_epochs (session ${id})`),
                'snapshot',
                `context_epochs (session ${id})`,
              )
            : null,
        };
      }),
  };
}

function tablesOf(db: Database.Database, name: string): Set<string> {
  try {
    return new Set(
      (db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all() as { name: string }[]).map(
        (t) => t.name,
      ),
    );
  } catch (error) {
    throw new KitInputError(name, `not a SQLite database (${(error as Error).message})`);
  }
}

function requireColumns(
  db: Database.Database,
  name: string,
  table: string,
  columns: readonly string[],
  present: Set<string>,
): void {
  if (!present.has(table)) throw new KitInputError(name, `no table "${table}": not a reference runtime store`);
  const found = new Set((db.prepare(`PRAGMA table_info(${table})`).all() as { name: string }[]).map((c) => c.name));
  const missing = columns.find((column) => !found.has(column));
  if (missing)
    throw new KitInputError(name, `table "${table}" has no column "${missing}": not a reference runtime store`);
}

/** Parses a JSON column in place; a row that does not parse is named by table and key. */
function jsonReader(name: string) {
  return (row: Row, column: string, where: string): Row => {
    try {
      return camel({ ...row, session_id: undefined, [column]: JSON.parse(String(row[column])) });
    } catch {
      throw new KitInputError(name, `${where}: column "${column}" is not JSON`);
    }
  };
}

function camel(row: Row): Row {
  return Object.fromEntries(
    Object.entries(row)
      .filter(([, value]) => value !== undefined)
      .map(([key, value]) => [key.replace(/_([a-z])/g, (_, letter: string) => letter.toUpperCase()), value]),
  );
}
