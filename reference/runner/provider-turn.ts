import type { EventLog } from '../store/event-log.js';
import type { HistoryStore } from '../history/history-store.js';
import type { ToolRegistry } from '../tools/tool-registry.js';
import type { IdSource } from '../ids.js';
import type { FinishReason, TokenUsage } from '../events/session-event.js';
import { INTERRUPTED_TOOL_OUTPUT } from '../history/message.js';
import { modelHistory } from '../history/model-history.js';
import type { Profile } from '../profile.js';
import type { ProviderRequest } from '../provider/provider-request.js';
import { streamTurn } from '../provider/stream-turn.js';
import { dialectFor } from '../provider/dialects.js';
import {
  ProviderRejected,
  StreamCut,
  type ProviderChunk,
  type ProviderConfig,
} from '../provider/provider-turn-stream.js';
import type { LiveFeed } from '../events/live-feed.js';
import type { Session } from '../session/session-store.js';
import type { Agent, AgentCatalog } from '../agents/agent-catalog.js';
import type { PermissionBoard } from '../agents/permission-board.js';
import type { ToolResult } from '../tools/tool-registry.js';
import type { ProviderRetries } from './provider-retries.js';
import type { DoomLoopDetector } from './doom-loop.js';

export interface ProviderTurnDeps {
  /** Told of each file a tool of the session read (nested instruction discovery). */
  fileRead?: (sessionId: string, location: string, path: string) => void;
  agents: AgentCatalog;
  permissions: PermissionBoard;
  log: EventLog;
  history: HistoryStore;
  tools: ToolRegistry;
  ids: IdSource;
  provider: ProviderConfig;
  live: LiveFeed;
  /** Retryable provider failures are retried (profile `sol`); without it they fail the turn. */
  retries?: ProviderRetries;
  /** How a completed compaction reaches the model. */
  profile: Pick<Profile, 'checkpointForm'>;
}

/** `overflow`: the provider refused the request as too large before any durable output. */
export type TurnOutcome = 'settled' | 'failed' | 'interrupted' | 'overflow';

interface PartialCall {
  id: string;
  name: string;
  input: string;
}

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
  const turn = new TurnProjection(deps, session, model, agent, signal, doomLoop);
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
    if (turn.doomLoopDenied) {
      deps.log.append(sessionId, [
        {
          type: 'session.failed',
          code: 'doom-loop',
          message: `the user stopped repeated identical calls of ${turn.doomLoopDenied}`,
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
    if (error instanceof StreamCut || error instanceof ProviderRejected) {
      const code = error instanceof StreamCut ? 'stream-cut' : 'provider-error';
      turn.fail(code, error.message);
      deps.log.append(sessionId, [{ type: 'session.failed', code, message: error.message }]);
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
    history: modelHistory(deps.history.messages(session.id), deps.profile.checkpointForm()),
    tools: deps.tools.definitions(),
  };
}

class TurnProjection {
  private messageId: string | undefined;
  private text = '';
  private reasoning: { text: string; signature?: string } | undefined;
  /** Provider-executed tool blocks by stream index, with the input JSON streamed for them. */
  private readonly providerBlocks = new Map<number, { block: Record<string, unknown>; input: string }>();
  private finish: FinishReason | undefined;
  private usage: TokenUsage | undefined;
  private call: PartialCall | undefined;
  private callIndex = -1;
  private readonly running: Promise<void>[] = [];

  private readonly sessionId: string;

  constructor(
    private readonly deps: ProviderTurnDeps,
    private readonly session: Session,
    private readonly model: string,
    /** The agent of this turn: its policy governs every call the turn issues, whatever happens later. */
    private readonly agent: Agent,
    private readonly signal: AbortSignal,
    private readonly doomLoop: DoomLoopDetector | undefined,
  ) {
    this.sessionId = session.id;
  }

  /** The tool whose repeated calls the user refused to let go on, if any. */
  doomLoopDenied: string | undefined;

  accept(chunk: ProviderChunk): void {
    const messageId = this.started();
    switch (chunk.type) {
      case 'text':
        this.text += chunk.delta;
        this.deps.live.publish({ sessionId: this.sessionId, messageId, delta: chunk.delta });
        return;
      case 'tool-call':
        if (chunk.index !== this.callIndex) {
          this.startPendingCall();
          this.callIndex = chunk.index;
          this.call = { id: chunk.id ?? '', name: chunk.name ?? '', input: '' };
        }
        this.call!.input += chunk.argumentsDelta ?? '';
        return;
      case 'reasoning':
        this.reasoning = { ...this.reasoning, text: (this.reasoning?.text ?? '') + chunk.delta };
        return;
      case 'provider-block':
        this.providerBlocks.set(chunk.index, { block: chunk.block, input: '' });
        return;
      case 'provider-block-input':
        this.providerBlocks.get(chunk.index)!.input += chunk.delta;
        return;
      case 'reasoning-signature':
        this.reasoning = { text: this.reasoning?.text ?? '', signature: chunk.signature };
        return;
      case 'finish':
        this.finish = chunk.reason;
        return;
      case 'usage':
        this.usage = chunk.usage;
        return;
    }
  }

  complete(): void {
    this.startPendingCall();
    const messageId = this.started();
    this.deps.log.append(this.sessionId, [
      {
        type: 'assistant.completed',
        messageId,
        text: this.text,
        finish: this.finish ?? 'stop',
        ...(this.reasoning ? { reasoning: this.reasoning } : {}),
        ...(this.usage ? { usage: this.usage } : {}),
        ...(this.providerBlocks.size > 0 ? { providerBlocks: this.completedProviderBlocks() } : {}),
      },
    ]);
  }

  /** The provider-executed blocks as the provider sent them, their streamed input put back in place. */
  private completedProviderBlocks(): Record<string, unknown>[] {
    return [...this.providerBlocks.values()].map(({ block, input }) =>
      input === '' ? block : { ...block, input: JSON.parse(input) },
    );
  }

  /** Whether anything of this turn is durable yet. */
  get producedOutput(): boolean {
    return this.messageId !== undefined;
  }

  fail(reason: 'interrupted' | 'stream-cut' | 'provider-error', message: string): void {
    if (!this.messageId) return;
    this.deps.log.append(this.sessionId, [
      { type: 'assistant.failed', messageId: this.messageId, text: this.text, reason, message },
    ]);
  }

  /** Every started tool is awaited, whatever happened to the stream. */
  async settled(): Promise<void> {
    await Promise.all(this.running);
  }

  private started(): string {
    if (this.messageId) return this.messageId;
    this.messageId = this.deps.ids.next('ast');
    this.deps.log.append(this.sessionId, [{ type: 'assistant.started', messageId: this.messageId, model: this.model }]);
    return this.messageId;
  }

  /** A call is complete once the stream moves past it; it is recorded durably, then started at once. */
  private startPendingCall(): void {
    const call = this.call;
    if (!call) return;
    this.call = undefined;
    const assistantMessageId = this.started();
    const { log } = this.deps;
    // Provider-executed blocks streamed before the call become durable with it, before it runs.
    const blocks = this.providerBlocks.size > 0 ? { providerBlocks: this.completedProviderBlocks() } : {};
    log.append(this.sessionId, [
      { type: 'tool.called', assistantMessageId, callId: call.id, name: call.name, input: call.input, ...blocks },
    ]);
    const settle = (result: Omit<ToolResult, 'status'> & { status: ToolResult['status'] | 'interrupted' }) =>
      log.append(this.sessionId, [{ type: 'tool.settled', assistantMessageId, callId: call.id, ...result }]);
    this.running.push(
      this.authorizedExecution(call).then(
        // Bounding and the durable settlement form one region: raw oversized output is never published.
        async (result) => void settle(await this.deps.tools.bound(result)),
        (error) => {
          if (!this.signal.aborted) throw error;
          settle({ status: 'interrupted', output: INTERRUPTED_TOOL_OUTPUT });
        },
      ),
    );
  }

  private async authorizedExecution(call: PartialCall): Promise<ToolResult> {
    const { agents, permissions, tools } = this.deps;
    if (this.doomLoop?.record(call.name, call.input)) {
      const id = this.deps.ids.next('prm');
      if (
        !(await permissions.ask(
          { id, sessionId: this.sessionId, tool: call.name, agent: this.agent.name },
          this.signal,
        ))
      ) {
        this.doomLoopDenied = call.name;
        return { status: 'error', output: 'The user stopped this repeated call' };
      }
      this.doomLoop.reset();
    }
    const permission = agents.toolPermission(this.agent, call.name, tools.unruled(call.name));
    if (permission === 'deny') return { status: 'error', output: `Agent ${this.agent.name} may not use ${call.name}` };
    if (permission === 'ask') {
      const id = this.deps.ids.next('prm');
      const approved = await permissions.ask(
        { id, sessionId: this.sessionId, tool: call.name, agent: this.agent.name },
        this.signal,
      );
      if (!approved) return { status: 'error', output: 'The user declined this tool call' };
    }
    const { location } = this.session;
    const fileRead = (path: string) => this.deps.fileRead?.(this.sessionId, location, path);
    const authorize = async (permission: string) => {
      const rule = agents.permissionRule(this.agent, permission) ?? 'ask';
      if (rule !== 'ask') return rule === 'allow';
      return permissions.ask(
        { id: this.deps.ids.next('prm'), sessionId: this.sessionId, tool: permission, agent: this.agent.name },
        this.signal,
      );
    };
    return tools.execute(call.name, call.input, {
      location,
      signal: this.signal,
      fileRead,
      agent: this.agent,
      authorize,
    });
  }
}
