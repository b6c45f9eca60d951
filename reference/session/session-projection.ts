import type { Statements } from '../store/database.js';
import type { SessionEvent } from '../events/session-event.js';

/** A session's row: where it runs, what it selected, and the last sequence number of its events. */
export const SESSIONS_SCHEMA = `
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
`;

export function projectSession(db: Statements, sessionId: string, event: SessionEvent): void {
  switch (event.type) {
    case 'session.moved':
      db.prepare('UPDATE sessions SET location = ?, project_root = ? WHERE id = ?').run(
        event.location,
        event.projectRoot,
        sessionId,
      );
      return;
    case 'session.selected':
      if (event.agent !== undefined)
        db.prepare('UPDATE sessions SET agent = ? WHERE id = ?').run(event.agent, sessionId);
      if (event.model !== undefined)
        db.prepare('UPDATE sessions SET model = ? WHERE id = ?').run(event.model, sessionId);
      return;
    case 'compaction.requested':
      db.prepare('UPDATE sessions SET compaction_requested = 1 WHERE id = ?').run(sessionId);
      return;
    case 'compaction.ended':
      db.prepare('UPDATE sessions SET compaction_requested = 0 WHERE id = ?').run(sessionId);
      return;
  }
}
