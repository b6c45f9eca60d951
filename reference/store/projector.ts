import type { Statements } from './database.js';
import type { SessionEvent } from '../events/session-event.js';
import { projectSession } from '../session/session-projection.js';
import { projectInbox } from '../inbox/inbox-projection.js';
import { projectHistory } from '../history/history-projection.js';
import { projectEpoch } from '../context/epoch-projection.js';
import { projectNestedInstructions } from '../context/nested-instructions-projection.js';
import { projectSavedApprovals } from '../agents/saved-approvals.js';

/**
 * Applies one event to every area's projection tables. Called only by the event log, inside the
 * transaction that appends the event: a projection change never exists without its event, and
 * the changes one event makes in several areas (a system message and the snapshot it admits, a
 * compaction's message and the epoch it ends) land together or not at all.
 */
export function project(db: Statements, sessionId: string, seq: number, event: SessionEvent): void {
  projectSession(db, sessionId, event);
  projectInbox(db, sessionId, seq, event);
  projectHistory(db, sessionId, seq, event);
  projectEpoch(db, sessionId, event);
  projectNestedInstructions(db, sessionId, seq, event);
  projectSavedApprovals(db, sessionId, event);
}
