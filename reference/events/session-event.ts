import type { ContextSnapshot } from '../context/system-context.js';
import type { ToolAttachment } from '../tools/tool.js';

/** The durable events of a session. Each is appended with the next per-session sequence number. */

export type Delivery = 'steer' | 'queue';

/** `source`: where an attachment came from; session-level metadata that no provider request carries. */
export type PromptPart =
  | { type: 'text'; text: string }
  | { type: 'image'; mediaType: string; data: string; source?: string }
  | { type: 'file'; mediaType: string; data: string; filename?: string; source?: string };

/** The text of a prompt; media parts have none. */
export function promptText(prompt: Prompt): string {
  return prompt.parts.flatMap((part) => (part.type === 'text' ? [part.text] : [])).join('\n');
}

/** What a client keeps with a user message; the runtime stores and replays it, never reads or sends it. */
export type PromptMetadata = Record<string, unknown>;

export interface Prompt {
  parts: PromptPart[];
  metadata?: PromptMetadata;
}

export type ToolStatus = 'success' | 'error' | 'interrupted';
export type FinishReason = 'stop' | 'tool_calls' | 'length';
/** What the provider reported a response cost: fresh input, input read from its cache, and output. */
export interface TokenUsage {
  input: number;
  cacheRead: number;
  output: number;
}
export type AssistantFailure = 'interrupted' | 'stream-cut' | 'provider-error';

export type SessionEvent =
  | { type: 'session.created'; location: string; projectRoot: string }
  | { type: 'session.moved'; location: string; projectRoot: string }
  /** Applies from the next provider turn; `null` agent means the default agent. */
  | { type: 'session.selected'; agent?: string | null; model?: string | null }
  /** The user approved a call and saved the approval for the session's project. */
  | { type: 'permission.saved'; tool: string; pattern: string }
  /** `parts`: the baseline as sent, one system part each (the core design joins it into one). */
  /** `provider`: the provider the epoch's first turn goes to (absent in events written before it was kept). */
  | { type: 'context.initialized'; parts: string[]; snapshot: ContextSnapshot; provider?: string }
  | { type: 'context.updated'; messageId: string; text: string; keys: string[]; snapshot: ContextSnapshot }
  | { type: 'context.cleared' }
  /** Nested instruction files found beside a file a tool read; they apply while the session stays. */
  | { type: 'instructions.discovered'; paths: string[] }
  /** A fresh baseline after a completed compaction: a new epoch on the same session. */
  | { type: 'context.replaced'; parts: string[]; snapshot: ContextSnapshot; provider?: string }
  /** The checkpoint design: a model or provider switch ends the epoch at the next provider attempt. */
  | { type: 'context.replacement-requested' }
  | { type: 'compaction.requested' }
  | { type: 'compaction.started'; compactionId: string }
  | {
      type: 'compaction.ended';
      compactionId: string;
      messageId: string;
      summary: string;
      recentContext: string;
      cutSeq: number;
      tokensFreed?: number;
    }
  | { type: 'compaction.failed'; compactionId: string; reason: string }
  /** Profile `continuation`: the hidden user message that lets the drain go on after a compaction. */
  | { type: 'continuation.injected'; messageId: string; prompt: Prompt; ofMedia?: boolean }
  | { type: 'prompt.admitted'; messageId: string; delivery: Delivery; prompt: Prompt }
  | { type: 'prompt.promoted'; messageId: string }
  | { type: 'assistant.started'; messageId: string; model: string }
  | {
      type: 'tool.called';
      assistantMessageId: string;
      callId: string;
      name: string;
      input: string;
      /** The provider-executed blocks streamed before the call, durable before it runs: a crash while it runs keeps them. */
      providerBlocks?: Record<string, unknown>[];
    }
  | {
      type: 'tool.settled';
      assistantMessageId: string;
      callId: string;
      status: ToolStatus;
      output: string;
      /** The tool's structured result, unchanged by bounding. */
      structured?: unknown;
      /** Where the complete output is when `output` was bounded. */
      outputPath?: string;
      /** The images and files the tool returned beside its text. */
      attachments?: ToolAttachment[];
    }
  | {
      type: 'assistant.completed';
      messageId: string;
      text: string;
      finish: FinishReason;
      reasoning?: { text: string; signature?: string };
      /** The provider's own ID of the answer's text item (Responses). */
      itemId?: string;
      providerBlocks?: Record<string, unknown>[];
      usage?: TokenUsage;
    }
  /** Profile `sol`: old tool outputs the model no longer reads in full; history keeps them whole. */
  | { type: 'tool.pruned'; messageIds: string[] }
  | { type: 'assistant.failed'; messageId: string; text: string; reason: AssistantFailure; message: string }
  | { type: 'session.failed'; code: SessionFailure; message: string };

/** Why a drain stopped without finishing its work. */
export type SessionFailure =
  | 'turn-limit'
  | 'provider-error'
  | 'stream-cut'
  | 'context-unavailable'
  | 'context-invalid'
  | 'compaction-failed'
  | 'context-overflow'
  | 'doom-loop';

export interface StoredEvent {
  sessionId: string;
  seq: number;
  at: string;
  event: SessionEvent;
}
