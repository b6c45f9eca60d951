import { createRequire } from 'node:module';
import type BetterSqlite3 from 'better-sqlite3';

/** better-sqlite3 is one of the kit's own dependencies; the adapter only reads the store with it. */
const Database = createRequire(import.meta.url)('better-sqlite3') as typeof BetterSqlite3;

export interface EpochView {
  baseline: string | null;
  snapshot: Record<string, { value: unknown; removal?: string }>;
}

/** One source of OpenCode's stored snapshot: its encoded value and, for a removable source, its removal text. */
interface StoredEntry {
  value: unknown;
  removed?: string;
}

/**
 * OpenCode keeps the Context Epoch only in its store (`session_context_epoch`): no route serves
 * it. Opened read-only per question, so the server's WAL writer is never held up.
 */
export function readEpoch(databaseFile: string, sessionId: string): EpochView {
  const db = new Database(databaseFile, { readonly: true, fileMustExist: true });
  try {
    const columns = (db.prepare(`PRAGMA table_info(session_context_epoch)`).all() as { name: string }[]).map(
      (c) => c.name,
    );
    if (columns.length === 0) return { baseline: null, snapshot: {} };
    const order = columns.includes('baseline_seq') ? 'ORDER BY baseline_seq DESC' : '';
    const row = db
      .prepare(`SELECT * FROM session_context_epoch WHERE session_id = ? ${order} LIMIT 1`)
      .get(sessionId) as Record<string, unknown> | undefined;
    if (!row) return { baseline: null, snapshot: {} };
    const baseline = typeof row.baseline === 'string' ? row.baseline : null;
    const raw = typeof row.snapshot === 'string' ? (JSON.parse(row.snapshot) as Record<string, StoredEntry>) : {};
    const snapshot = Object.fromEntries(
      Object.entries(raw).map(([key, entry]) => [
        key,
        { value: entry.value, ...(entry.removed === undefined ? {} : { removal: entry.removed }) },
      ]),
    );
    return { baseline, snapshot };
  } finally {
    db.close();
  }
}

/**
 * The approvals OpenCode saved for a project (its `permission` table, which `PermissionSaved.add`
 * fills when a request is answered `always`), by ID. Read-only, as the epoch is.
 */
export function savedApprovalIds(databaseFile: string): string[] {
  const db = new Database(databaseFile, { readonly: true, fileMustExist: true });
  try {
    const table = db.prepare(`SELECT name FROM sqlite_master WHERE type = 'table' AND name = 'permission'`).get();
    if (!table) return [];
    return (db.prepare('SELECT id FROM permission').all() as { id: string }[]).map((row) => row.id);
  } finally {
    db.close();
  }
}
