import type { HistoryStore } from '../history/history-store.js';
import { modelHistory } from '../history/model-history.js';
import type { PrunedMessage } from '../history/message.js';
import type { Profile } from '../profile.js';
import { sessionProviderOptions, type ProviderRequest } from '../provider/provider-request.js';
import { streamTurn } from '../provider/stream-turn.js';
import { dialectFor } from '../provider/dialects.js';
import {
  MalformedResponse,
  ProviderRejected,
  StreamCut,
  type ProviderConfig,
} from '../provider/provider-turn-stream.js';
import type { Session } from '../session/session-store.js';
import type { ProviderRetries } from './provider-retries.js';
import type { DoomLoopDetector } from './doom-loop.js';
import { ToolAuthorization } from './tool-authorization.js';
import { TurnProjection, type TurnProjectionDeps } from './turn-projection.js';

export interface ProviderTurnDeps extends TurnProjectionDeps {
  history: HistoryStore;
  provider: ProviderConfig;
  /** Retryable provider failures are retried (profile `sol`); without it they fail the turn. */
  retries?: ProviderRetries;
  /** How a completed compaction reaches the model. */
  profile: Pick<Profile, 'checkpointForm'>;
  /** The replacement text of pruned content, where one is configured (profile sol). */
  prunedMessage?(): PrunedMessage | undefined;
}

/** `overflow`: the provider refused the request as too large before any durable output. */
export type TurnOutcome = 'settled' | 'failed' | 'interrupted' | 'overflow';

/**
 * One provider turn: one request, the streamed response projected durably, and every local tool
 * call recorded before it starts and awaited after the stream closes.
 */
export async function runProviderTurn(
  deps: ProviderTurnDeps,
  session: Session,
  baseline: string[],
  signal: AbortSignal,
  /** Watches the drain's tool calls for doom loops (profile `sol`). */
  doomLoop?: DoomLoopDetector,
): Promise<TurnOutcome> {
  // Agent and model are sampled once, here: a switch admitted later applies to the next turn.
  const agent = deps.agents.agent(session.agent);
  const request = providerRequest(deps, session, baseline);
  const { model } = request;
  const sessionId = session.id;
  const authorization = new ToolAuthorization(deps, session, agent, signal, doomLoop);
  const turn = new TurnProjection(deps, sessionId, model, signal, (call) => authorization.authorizedExecution(call));
  const dialect = dialectFor(deps.provider.dialect);
  const open = () => streamTurn(dialect, deps.provider, request, signal);
  const chunks = deps.retries
    ? deps.retries.stream(
        sessionId,
        open,
        (rejected) => dialect.isContextOverflow(rejected.status, rejected.body),
        signal,
      )
    : open();
  try {
    for await (const chunk of chunks) turn.accept(chunk);
    turn.complete();
    await turn.settled();
    if (authorization.doomLoopDenied) {
      deps.log.append(sessionId, [
        {
          type: 'session.failed',
          code: 'doom-loop',
          message: `the user stopped repeated identical calls of ${authorization.doomLoopDenied}`,
        },
      ]);
      return 'failed';
    }
    return 'settled';
  } catch (error) {
    await turn.settled();
    if (signal.aborted) {
      turn.fail('interrupted', 'Provider turn interrupted');
      return 'interrupted';
    }
    if (
      error instanceof ProviderRejected &&
      !turn.producedOutput &&
      dialect.isContextOverflow(error.status, error.body)
    ) {
      return 'overflow';
    }
    if (error instanceof StreamCut || error instanceof ProviderRejected || error instanceof MalformedResponse) {
      const code = error instanceof StreamCut ? 'stream-cut' : 'provider-error';
      // The failed message and the session's failure become durable together.
      deps.log.atomically(sessionId, () => {
        turn.fail(code, error.message);
        deps.log.append(sessionId, [{ type: 'session.failed', code, message: error.message }]);
      });
      return 'failed';
    }
    throw error;
  }
}

/** What the next provider turn of `session` would send. */
export function providerRequest(deps: ProviderTurnDeps, session: Session, baseline: string[]): ProviderRequest {
  return {
    model: session.model ?? deps.provider.model,
    baseline,
    history: modelHistory(deps.history.messages(session.id), deps.profile.checkpointForm(), deps.prunedMessage?.()),
    tools: deps.tools.definitions(session.location),
    options: sessionProviderOptions(session.id),
  };
}
