import type { Statements } from '../store/database.js';
import type { SessionEvent } from '../events/session-event.js';

/** The nested instruction files a session discovered at its current location. */
export const DISCOVERED_INSTRUCTIONS_SCHEMA = `
CREATE TABLE IF NOT EXISTS discovered_instructions (
  session_id TEXT NOT NULL REFERENCES sessions(id),
  path TEXT NOT NULL,
  discovered_seq INTEGER NOT NULL,
  PRIMARY KEY (session_id, path)
);
`;

export function projectNestedInstructions(db: Statements, sessionId: string, seq: number, event: SessionEvent): void {
  switch (event.type) {
    case 'instructions.discovered':
      for (const path of event.paths) {
        db.prepare(
          'INSERT OR IGNORE INTO discovered_instructions (session_id, path, discovered_seq) VALUES (?, ?, ?)',
        ).run(sessionId, path, seq);
      }
      return;
    // They belong to the location the session left.
    case 'session.moved':
      db.prepare('DELETE FROM discovered_instructions WHERE session_id = ?').run(sessionId);
      return;
  }
}
