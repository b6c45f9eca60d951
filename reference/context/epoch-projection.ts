import type { Statements } from '../store/database.js';
import type { SessionEvent } from '../events/session-event.js';

/** The session's current Context Epoch: its baseline as sent, and its Context Snapshot. */
export const CONTEXT_EPOCHS_SCHEMA = `
CREATE TABLE IF NOT EXISTS context_epochs (
  session_id TEXT PRIMARY KEY REFERENCES sessions(id),
  baseline TEXT NOT NULL,
  snapshot TEXT NOT NULL,
  -- Set by a completed compaction: the next provider attempt renders a fresh baseline.
  replacement_pending INTEGER NOT NULL DEFAULT 0,
  -- The provider the epoch began with: a switch to another ends the epoch in the checkpoint design.
  provider TEXT
);
`;

export function projectEpoch(db: Statements, sessionId: string, event: SessionEvent): void {
  switch (event.type) {
    case 'context.initialized':
      db.prepare(
        'INSERT OR REPLACE INTO context_epochs (session_id, baseline, snapshot, provider) VALUES (?, ?, ?, ?)',
      ).run(sessionId, JSON.stringify(event.parts), JSON.stringify(event.snapshot), event.provider ?? null);
      return;
    case 'context.updated': {
      const advanced = db
        .prepare('UPDATE context_epochs SET snapshot = ? WHERE session_id = ?')
        .run(JSON.stringify(event.snapshot), sessionId);
      if (advanced.changes !== 1) throw new Error(`session ${sessionId} has no context epoch to update`);
      return;
    }
    case 'context.cleared':
      db.prepare('DELETE FROM context_epochs WHERE session_id = ?').run(sessionId);
      return;
    case 'context.replaced':
      db.prepare(
        'UPDATE context_epochs SET baseline = ?, snapshot = ?, replacement_pending = 0, provider = ? WHERE session_id = ?',
      ).run(JSON.stringify(event.parts), JSON.stringify(event.snapshot), event.provider ?? null, sessionId);
      return;
    case 'context.replacement-requested':
      db.prepare('UPDATE context_epochs SET replacement_pending = 1 WHERE session_id = ?').run(sessionId);
      return;
    case 'compaction.ended':
      db.prepare('UPDATE context_epochs SET replacement_pending = 1 WHERE session_id = ?').run(sessionId);
      return;
  }
}
