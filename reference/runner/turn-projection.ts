import type { EventLog } from '../store/event-log.js';
import type { FinishReason, TokenUsage } from '../events/session-event.js';
import { INTERRUPTED_TOOL_OUTPUT } from '../history/message.js';
import { MalformedResponse, type ProviderChunk } from '../provider/provider-turn-stream.js';
import type { LiveFeed } from '../events/live-feed.js';
import type { ToolResult } from '../tools/tool-registry.js';
import type { ToolAuthorizationDeps } from './tool-authorization.js';

export interface TurnProjectionDeps extends ToolAuthorizationDeps {
  log: EventLog;
  live: LiveFeed;
}

/** A tool call as streamed so far. */
export interface PartialCall {
  id: string;
  name: string;
  input: string;
}

/**
 * The streamed response of one provider turn, projected durably: the assistant message starts
 * with its first chunk and completes or fails with the stream; each tool call is recorded once the
 * stream moves past it, started at once, and settled with its bounded output.
 */
export class TurnProjection {
  private messageId: string | undefined;
  private text = '';
  private reasoning: { text: string; signature?: string } | undefined;
  private itemId: string | undefined;
  /** Provider-executed tool blocks by stream index, with the input JSON streamed for them. */
  private readonly providerBlocks = new Map<number, { block: Record<string, unknown>; input: string }>();
  private finish: FinishReason | undefined;
  private usage: TokenUsage | undefined;
  private call: PartialCall | undefined;
  private callIndex = -1;
  /** The IDs of the calls recorded so far: each names one tool result, so none may repeat. */
  private readonly callIds = new Set<string>();
  private readonly running: Promise<void>[] = [];

  constructor(
    private readonly deps: TurnProjectionDeps,
    private readonly sessionId: string,
    private readonly model: string,
    private readonly signal: AbortSignal,
    /** Runs a recorded call as far as it is allowed. */
    private readonly execute: (call: PartialCall) => Promise<ToolResult>,
  ) {}

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
      case 'item-id':
        this.itemId = chunk.id;
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
        ...(this.itemId ? { itemId: this.itemId } : {}),
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
    // A repeated ID would make two results indistinguishable, to the model and in the history.
    if (this.callIds.has(call.id)) throw new MalformedResponse(`tool call ID "${call.id}" repeats within one response`);
    this.callIds.add(call.id);
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
      this.execute(call).then(
        // Bounding and the durable settlement form one region: raw oversized output is never published.
        async (result) => void settle(await this.deps.tools.bound(result)),
        (error) => {
          if (!this.signal.aborted) throw error;
          settle({ status: 'interrupted', output: INTERRUPTED_TOOL_OUTPUT });
        },
      ),
    );
  }
}
