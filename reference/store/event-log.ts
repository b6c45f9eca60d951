import { preparedOnce, type Db, type Statements } from './database.js';
import type { SessionEvent, StoredEvent } from '../events/session-event.js';
import { project } from './projector.js';
import type { Clock } from '../clock.js';

type CommitListener = (sessionId: string) => void;

/**
 * Appends durable events and applies their projections in one transaction, so the event log and
 * every table derived from it can never disagree, even across a crash.
 */
export class EventLog {
  private readonly listeners = new Set<CommitListener>();
  private readonly nextSeq;
  private readonly insert;
  private readonly readAfter;
  private readonly projections: Statements;
  private readonly appendAll;
  private readonly inTransaction;

  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
  ) {
    this.projections = preparedOnce(db);
    this.appendAll = db.transaction((sessionId: string, events: SessionEvent[]) =>
      events.map((event) => this.appendOne(sessionId, event)),
    );
    this.inTransaction = db.transaction(<T>(work: () => T): T => work());
    this.nextSeq = db.prepare<[string], { last_seq: number }>(
      'UPDATE sessions SET last_seq = last_seq + 1 WHERE id = ? RETURNING last_seq',
    );
    this.insert = db.prepare('INSERT INTO events (session_id, seq, type, data, at) VALUES (?, ?, ?, ?, ?)');
    this.readAfter = db.prepare<[string, number], { seq: number; data: string; at: string }>(
      'SELECT seq, data, at FROM events WHERE session_id = ? AND seq > ? ORDER BY seq',
    );
  }

  /** Appends the events in order, atomically; returns their sequence numbers. */
  append(sessionId: string, events: SessionEvent[]): number[] {
    const seqs = this.appendAll(sessionId, events);
    // Inside `atomically`, nothing is committed yet: listeners hear of it when the whole commits.
    if (!this.db.inTransaction) for (const listener of this.listeners) listener(sessionId);
    return seqs;
  }

  /** Runs `work` in one transaction; `append` calls inside it join the transaction. */
  atomically<T>(sessionId: string, work: () => T): T {
    const result = this.inTransaction(work) as T;
    for (const listener of this.listeners) listener(sessionId);
    return result;
  }

  after(sessionId: string, cursor: number): StoredEvent[] {
    return this.readAfter.all(sessionId, cursor).map((row) => ({
      sessionId,
      seq: row.seq,
      at: row.at,
      event: JSON.parse(row.data) as SessionEvent,
    }));
  }

  /**
   * Replays the session's events after `after`, then tails new ones as they commit. The commit
   * listener is registered before the replay read, so a commit in between is never missed; the
   * cursor drops duplicates. Returns what stops the tail.
   */
  tail(sessionId: string, after: number, onEvent: (event: StoredEvent) => void): () => void {
    let cursor = after;
    const deliver = () => {
      for (const event of this.after(sessionId, cursor)) {
        cursor = event.seq;
        onEvent(event);
      }
    };
    const stop = this.onCommit((committed) => committed === sessionId && deliver());
    deliver();
    return stop;
  }

  /** Commit notifications are advisory: a listener re-reads the log, which holds every event. */
  onCommit(listener: CommitListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private appendOne(sessionId: string, event: SessionEvent): number {
    const row = this.nextSeq.get(sessionId);
    if (!row) throw new Error(`unknown session ${sessionId}`);
    const at = this.clock.now().toISOString();
    this.insert.run(sessionId, row.last_seq, event.type, JSON.stringify(event), at);
    project(this.projections, sessionId, row.last_seq, event);
    return row.last_seq;
  }
}
