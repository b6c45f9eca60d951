import type { Statements } from '../store/database.js';
import type { SessionEvent } from '../events/session-event.js';
import { insertMessage } from '../history/history-projection.js';

/** Admitted Prompts: pending until promoted, then kept with the sequence number of their promotion. */
export const INBOX_SCHEMA = `
CREATE TABLE IF NOT EXISTS inbox (
  message_id TEXT PRIMARY KEY,
  session_id TEXT NOT NULL REFERENCES sessions(id),
  prompt TEXT NOT NULL,
  delivery TEXT NOT NULL CHECK (delivery IN ('steer', 'queue')),
  admitted_seq INTEGER NOT NULL,
  promoted_seq INTEGER
);
CREATE INDEX IF NOT EXISTS inbox_pending ON inbox (session_id, promoted_seq, admitted_seq);
`;

export function projectInbox(db: Statements, sessionId: string, seq: number, event: SessionEvent): void {
  switch (event.type) {
    case 'prompt.admitted':
      db.prepare(
        'INSERT INTO inbox (message_id, session_id, prompt, delivery, admitted_seq) VALUES (?, ?, ?, ?, ?)',
      ).run(event.messageId, sessionId, JSON.stringify(event.prompt), event.delivery, seq);
      return;
    // Prompt Promotion: the pending row is consumed and its user message appended in one write.
    case 'prompt.promoted': {
      const row = db
        .prepare<[number, string], { prompt: string }>(
          'UPDATE inbox SET promoted_seq = ? WHERE message_id = ? AND promoted_seq IS NULL RETURNING prompt',
        )
        .get(seq, event.messageId);
      if (!row) throw new Error(`prompt ${event.messageId} is not pending`);
      insertMessage(db, sessionId, seq, event.messageId, 'user', 'completed', JSON.parse(row.prompt));
      return;
    }
  }
}
