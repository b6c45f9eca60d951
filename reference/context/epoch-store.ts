import type { Db } from '../store/database.js';
import type { ContextSnapshot } from './system-context.js';

/** A session's Context Epoch: the immutable baseline text and the snapshot it is compared against. */
export interface ContextEpoch {
  baseline: string;
  snapshot: ContextSnapshot;
}

/** Reads the epoch projection; it is written only by the event log's projector. */
export class EpochStore {
  private readonly byId;

  constructor(db: Db) {
    this.byId = db.prepare<[string], { baseline: string; snapshot: string }>(
      'SELECT baseline, snapshot FROM context_epochs WHERE session_id = ?',
    );
  }

  find(sessionId: string): ContextEpoch | undefined {
    const row = this.byId.get(sessionId);
    return row && { baseline: row.baseline, snapshot: JSON.parse(row.snapshot) };
  }
}
