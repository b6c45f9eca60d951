import type { StoredEvent } from '../events/session-event.js';

/** One compaction attempt as its durable events tell it. */
export interface Compaction {
  id: string;
  status: 'started' | 'completed' | 'failed';
  summary?: string;
  tokensFreed?: number;
}

/** The compactions among a session's events, oldest first, each in its latest state. */
export function compactionsOf(events: StoredEvent[]): Compaction[] {
  const found = new Map<string, Compaction>();
  for (const { event } of events) {
    if (event.type === 'compaction.started')
      found.set(event.compactionId, { id: event.compactionId, status: 'started' });
    if (event.type === 'compaction.ended') {
      const { compactionId: id, summary, tokensFreed } = event;
      found.set(id, { id, status: 'completed', summary, ...(tokensFreed === undefined ? {} : { tokensFreed }) });
    }
    if (event.type === 'compaction.failed') found.set(event.compactionId, { id: event.compactionId, status: 'failed' });
  }
  return [...found.values()];
}
