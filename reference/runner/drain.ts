import type { SessionStore } from '../session/session-store.js';
import type { Inbox } from '../inbox/inbox.js';
import type { SessionMessage } from '../history/message.js';
import { failAbandonedWork } from './recovery.js';
import { runProviderTurn, type ProviderTurnDeps } from './provider-turn.js';
import { ContextBlocked, ContextBoundary, type ContextBoundaryDeps } from './context-boundary.js';

/** `run` resumes explicitly and always makes one provider attempt; `wake` only delivers new input. */
export type DrainMode = 'run' | 'wake';
export type DrainResult = 'idle' | 'failed' | 'interrupted' | 'moved';

export const MAX_PROVIDER_TURNS = 25;

export interface DrainDeps extends ProviderTurnDeps, ContextBoundaryDeps {
  sessions: SessionStore;
  inbox: Inbox;
}

/**
 * One Session Drain: at each Safe Provider-Turn Boundary, prepare the context, promote eligible
 * input, admit context changes, then run a provider turn, until no continuation remains.
 * Process-local: nothing durable marks its start or end.
 */
export async function drainSession(
  deps: DrainDeps,
  sessionId: string,
  mode: DrainMode,
  signal: AbortSignal,
): Promise<DrainResult> {
  const { location } = deps.sessions.get(sessionId);
  failAbandonedWork(deps.log, deps.history, sessionId);
  let turns = 0;
  for (let first = true; ; first = false) {
    if (signal.aborted) return 'interrupted';
    // A wake with nothing to deliver does nothing, not even observe the context.
    if (first && mode === 'wake' && !deps.inbox.hasPending(sessionId)) return 'idle';
    const session = deps.sessions.get(sessionId);
    // A moved session never starts another turn with the tools and context of the old location.
    if (session.location !== location) return 'moved';
    let context: ContextBoundary;
    try {
      context = await ContextBoundary.open(deps, session);
    } catch (error) {
      if (!(error instanceof ContextBlocked)) throw error;
      deps.log.append(sessionId, [{ type: 'session.failed', code: error.code, message: error.message }]);
      return 'failed';
    }
    const promoted = promoteAtBoundary(deps, sessionId);
    if (promoted > 0) turns = 0;
    if (first && mode === 'wake' && promoted === 0) return 'idle';
    const attemptAnyway = first && mode === 'run';
    if (!requiresContinuation(deps.history.messages(sessionId)) && !attemptAnyway) return 'idle';
    if (turns >= MAX_PROVIDER_TURNS) {
      deps.log.append(sessionId, [
        { type: 'session.failed', code: 'turn-limit', message: `work remains after ${MAX_PROVIDER_TURNS} provider turns` },
      ]);
      return 'failed';
    }
    const epoch = await context.admitChanges();
    turns += 1;
    const outcome = await runProviderTurn(deps, session, epoch.baseline, signal);
    if (outcome !== 'settled') return outcome;
  }
}

/** Steers promote at every boundary; a queued prompt only when the session would otherwise go idle. */
function promoteAtBoundary(deps: DrainDeps, sessionId: string): number {
  const steers = deps.inbox.promoteSteers(sessionId);
  if (steers > 0 || requiresContinuation(deps.history.messages(sessionId))) return steers;
  return deps.inbox.promoteNextQueued(sessionId);
}

/**
 * The model still owes an answer: to a user message, or to the settled results of its tool calls.
 * An activity whose tools were interrupted waits for the user instead: only an explicit `run`
 * continues it.
 */
export function requiresContinuation(history: SessionMessage[]): boolean {
  const last = history.filter((message) => message.role !== 'system').at(-1);
  if (last?.role === 'user') return true;
  if (last?.role !== 'tool') return false;
  return !history.some(
    (message) =>
      message.role === 'tool' && message.assistantMessageId === last.assistantMessageId && message.status === 'interrupted',
  );
}
