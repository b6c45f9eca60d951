import type { Db } from '../store/database.js';
import type { ContextSnapshot } from './system-context.js';

/** A session's Context Epoch: the immutable baseline text and the snapshot it is compared against. */
export interface ContextEpoch {
  /** The system parts sent on every provider turn of the epoch. */
  parts: string[];
  /** The parts joined: the exact provider-cache prefix. */
  baseline: string;
  snapshot: ContextSnapshot;
  /** A compaction completed: this epoch ends at the next provider attempt. */
  replacementPending: boolean;
  /** The provider the epoch began with, where it was kept. */
  provider?: string;
}

/** Reads the epoch projection; it is written only by the event log's projector. */
export class EpochStore {
  private readonly byId;

  constructor(db: Db) {
    this.byId = db.prepare<
      [string],
      { baseline: string; snapshot: string; replacement_pending: number; provider: string | null }
    >('SELECT baseline, snapshot, replacement_pending, provider FROM context_epochs WHERE session_id = ?');
  }

  find(sessionId: string): ContextEpoch | undefined {
    const row = this.byId.get(sessionId);
    if (!row) return undefined;
    const parts = JSON.parse(row.baseline) as string[];
    return {
      parts,
      baseline: parts.join('\n\n'),
      snapshot: JSON.parse(row.snapshot),
      replacementPending: row.replacement_pending === 1,
      ...(row.provider === null ? {} : { provider: row.provider }),
    };
  }
}
