import type { SessionStore } from '../session/session-store.js';
import type { Inbox } from '../inbox/inbox.js';
import type { ModelMessage, SessionMessage } from '../history/message.js';
import { failAbandonedWork } from './recovery.js';
import { providerRequest, runProviderTurn, type ProviderTurnDeps } from './provider-turn.js';
import { compact, compactable } from '../compaction/compactor.js';
import { budgetFor, overBudget, type CompactionBudget } from '../compaction/compaction-budget.js';
import type { Session } from '../session/session-store.js';
import { ContextBlocked, ContextBoundary, type ContextBoundaryDeps } from './context-boundary.js';
import { DoomLoopDetector } from './doom-loop.js';
import { prunableOutputs } from '../compaction/pruning.js';
import { usageOverflows } from '../compaction/token-usage.js';
import { CONTINUE_TEXT, continuationFor } from '../compaction/continuation.js';
import { modelHistory } from '../history/model-history.js';
import type { Profile } from '../profile.js';

/** `run` resumes explicitly and always makes one provider attempt; `wake` only delivers new input. */
export type DrainMode = 'run' | 'wake';
export type DrainResult = 'idle' | 'failed' | 'interrupted' | 'moved';

export const MAX_PROVIDER_TURNS = 25;

export interface DrainDeps extends ProviderTurnDeps, ContextBoundaryDeps {
  sessions: SessionStore;
  inbox: Inbox;
  budget(): CompactionBudget;
  profile: Profile;
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
  /** Set once an overflow was answered with a compaction: the rebuilt attempt is the last one. */
  let overflowRecovery = false;
  const doomLoop = deps.profile.detectsDoomLoops() ? new DoomLoopDetector() : undefined;
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
        {
          type: 'session.failed',
          code: 'turn-limit',
          message: `work remains after ${MAX_PROVIDER_TURNS} provider turns`,
        },
      ]);
      return 'failed';
    }
    if (deps.profile.prunesToolOutputs() && deps.budget().prune !== false) prune(deps, sessionId);
    if (compactionDue(deps, session)) {
      const compacted = await compactBeforeTurn(deps, session, signal);
      if (compacted === 'completed') continue;
      return compacted;
    }
    const epoch = await context.admitChanges();
    turns += 1;
    const outcome = await runProviderTurn(deps, session, epoch.parts, signal, doomLoop);
    if (outcome === 'overflow') {
      // One compaction, then the same logical turn once more; a second overflow is final.
      const foldable = compactable(deps.history.messages(sessionId)).folded.length > 0;
      if (overflowRecovery || !foldable) {
        const message = overflowRecovery
          ? 'the request overflowed the context window again after a compaction'
          : 'the request overflowed the context window and nothing can be compacted';
        deps.log.append(sessionId, [{ type: 'session.failed', code: 'context-overflow', message }]);
        return 'failed';
      }
      overflowRecovery = true;
      turns -= 1;
      const compacted = await compactBeforeTurn(deps, session, signal);
      if (compacted === 'completed') continue;
      return compacted;
    }
    if (outcome !== 'settled') return outcome;
    overflowRecovery = false;
  }
}

/** Marks the outputs the model no longer needs in full; the durable history keeps them whole. */
function prune(deps: DrainDeps, sessionId: string): void {
  const messageIds = prunableOutputs(deps.history.messages(sessionId));
  if (messageIds.length > 0) deps.log.append(sessionId, [{ type: 'tool.pruned', messageIds }]);
}

/** A compaction that does not complete stops the drain: the previous history boundary stays. */
async function compactBeforeTurn(
  deps: DrainDeps,
  session: Session,
  signal: AbortSignal,
): Promise<'completed' | 'failed' | 'interrupted'> {
  const model = session.model ?? deps.provider.model;
  const before = deps.history.messages(session.id);
  if (await compact(deps, session.id, model, before, signal, deps.profile.injectsContinuation())) {
    if (deps.profile.injectsContinuation()) {
      const { prompt, ofMedia } = continuationFor(before);
      deps.log.append(session.id, [
        { type: 'continuation.injected', messageId: deps.ids.next('msg'), prompt, ...(ofMedia ? { ofMedia } : {}) },
      ]);
    } else if (
      deps.profile.continuesAfterCompaction() &&
      !awaitsAnswer(modelHistory(deps.history.messages(session.id), deps.profile.checkpointForm()))
    ) {
      // Profile sol (`CompactAndContinue`): the summary answered the trigger; the loop goes on by itself.
      deps.log.append(session.id, [
        {
          type: 'continuation.injected',
          messageId: deps.ids.next('msg'),
          prompt: { parts: [{ type: 'text', text: CONTINUE_TEXT }] },
        },
      ]);
    }
    return 'completed';
  }
  if (signal.aborted) return 'interrupted';
  deps.log.append(session.id, [
    { type: 'session.failed', code: 'compaction-failed', message: 'the compaction did not complete' },
  ]);
  return 'failed';
}

/**
 * Compaction runs before the pending turn when the user asked for it or the request would not fit
 * the selected model's context window (unless profile sol turned automatic compaction off), and
 * only when older complete turns exist to fold.
 */
function compactionDue(deps: DrainDeps, session: Session): boolean {
  const messages = deps.history.messages(session.id);
  if (compactable(messages).folded.length === 0) return false;
  if (session.compactionRequested) return true;
  if (deps.profile.obeysCompactionSwitches() && deps.budget().auto === false) return false;
  const budget = budgetFor(deps.budget(), session.model ?? deps.provider.model);
  if (deps.profile.compactsOnReportedUsage() && usageOverflows(messages, budget)) return true;
  const epoch = deps.epochs.find(session.id)!;
  return overBudget(providerRequest(deps, session, epoch.parts), budget);
}

/** Steers promote at every boundary; a queued prompt only when the session would otherwise go idle. */
function promoteAtBoundary(deps: DrainDeps, sessionId: string): number {
  const steers = deps.inbox.promoteSteers(sessionId);
  if (steers > 0 || requiresContinuation(deps.history.messages(sessionId))) return steers;
  return deps.inbox.promoteNextQueued(sessionId);
}

/** The model history ends with input the model has not answered yet. */
function awaitsAnswer(history: ModelMessage[]): boolean {
  return history.filter((message) => message.role !== 'system').at(-1)?.role === 'user';
}

/**
 * The model still owes an answer: to a user message, or to the settled results of its tool calls.
 * An activity whose tools were interrupted waits for the user instead: only an explicit `run`
 * continues it.
 */
export function requiresContinuation(history: SessionMessage[]): boolean {
  const last = history.filter((message) => message.role !== 'system' && message.role !== 'compaction').at(-1);
  if (last?.role === 'user') return true;
  if (last?.role !== 'tool') return false;
  return !history.some(
    (message) =>
      message.role === 'tool' &&
      message.assistantMessageId === last.assistantMessageId &&
      message.status === 'interrupted',
  );
}
