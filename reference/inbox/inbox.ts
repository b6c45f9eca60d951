import { isDeepStrictEqual } from 'node:util';
import type { Db } from '../store/database.js';
import type { EventLog } from '../store/event-log.js';
import type { Delivery, Prompt } from '../events/session-event.js';
import { RuntimeError } from '../errors.js';

export interface InboxRow {
  messageId: string;
  sessionId: string;
  delivery: Delivery;
  prompt: Prompt;
  admittedSeq: number;
  promotedSeq: number | null;
}

export interface Admission {
  messageId: string;
  sessionId: string;
  delivery: Delivery;
  prompt: Prompt;
}

interface Row {
  message_id: string;
  session_id: string;
  delivery: Delivery;
  prompt: string;
  admitted_seq: number;
  promoted_seq: number | null;
}

/**
 * The durable inbox of Admitted Prompts. Admission is idempotent on the message ID; promotion
 * appends the user message and consumes the row through one event, so it is atomic.
 */
export class Inbox {
  private readonly byId;
  private readonly pending;
  private readonly all;

  constructor(
    db: Db,
    private readonly log: EventLog,
  ) {
    this.byId = db.prepare<[string], Row>('SELECT * FROM inbox WHERE message_id = ?');
    this.pending = db.prepare<[string, Delivery], Row>(
      'SELECT * FROM inbox WHERE session_id = ? AND delivery = ? AND promoted_seq IS NULL ORDER BY admitted_seq',
    );
    this.all = db.prepare<[string], Row>('SELECT * FROM inbox WHERE session_id = ? ORDER BY admitted_seq');
  }

  /** Admits once; an exact retry returns the stored row, anything else under the same ID is a conflict. */
  admit(admission: Admission): { row: InboxRow; duplicate: boolean } {
    return this.log.atomically(admission.sessionId, () => {
      const existing = this.byId.get(admission.messageId);
      if (existing) return { row: this.sameAdmission(toRow(existing), admission), duplicate: true };
      const { messageId, delivery, prompt } = admission;
      this.log.append(admission.sessionId, [{ type: 'prompt.admitted', messageId, delivery, prompt }]);
      return { row: toRow(this.byId.get(messageId)!), duplicate: false };
    });
  }

  hasPending(sessionId: string): boolean {
    return this.pending.all(sessionId, 'steer').length + this.pending.all(sessionId, 'queue').length > 0;
  }

  rows(sessionId: string): InboxRow[] {
    return this.all.all(sessionId).map(toRow);
  }

  /** Promotes every pending steer, in admission order, at one boundary. */
  promoteSteers(sessionId: string): number {
    return this.promote(sessionId, this.pending.all(sessionId, 'steer'));
  }

  /** Promotes the oldest pending queued prompt: one queued prompt opens one activity. */
  promoteNextQueued(sessionId: string): number {
    return this.promote(sessionId, this.pending.all(sessionId, 'queue').slice(0, 1));
  }

  private promote(sessionId: string, rows: Row[]): number {
    if (rows.length === 0) return 0;
    this.log.append(
      sessionId,
      rows.map((row) => ({ type: 'prompt.promoted', messageId: row.message_id })),
    );
    return rows.length;
  }

  private sameAdmission(existing: InboxRow, admission: Admission): InboxRow {
    const differs = [
      existing.sessionId !== admission.sessionId && 'session',
      !isDeepStrictEqual(existing.prompt, admission.prompt) && 'prompt',
      existing.delivery !== admission.delivery && 'delivery mode',
    ].filter(Boolean);
    if (differs.length > 0) {
      throw new RuntimeError(
        'conflict',
        `message ID ${admission.messageId} was already admitted with another ${differs.join(', ')}`,
      );
    }
    return existing;
  }
}

function toRow(row: Row): InboxRow {
  return {
    messageId: row.message_id,
    sessionId: row.session_id,
    delivery: row.delivery,
    prompt: JSON.parse(row.prompt),
    admittedSeq: row.admitted_seq,
    promotedSeq: row.promoted_seq,
  };
}
