import type { ContextSnapshot } from '../context/system-context.js';

/** The durable events of a session. Each is appended with the next per-session sequence number. */

export type Delivery = 'steer' | 'queue';

export interface PromptPart {
  type: 'text';
  text: string;
}

export interface Prompt {
  parts: PromptPart[];
}

export type ToolStatus = 'success' | 'error' | 'interrupted';
export type FinishReason = 'stop' | 'tool_calls' | 'length';
export type AssistantFailure = 'interrupted' | 'stream-cut' | 'provider-error';

export type SessionEvent =
  | { type: 'session.created'; location: string; projectRoot: string }
  | { type: 'session.moved'; location: string; projectRoot: string }
  /** Applies from the next provider turn; `null` agent means the default agent. */
  | { type: 'session.selected'; agent?: string | null; model?: string | null }
  | { type: 'context.initialized'; baseline: string; snapshot: ContextSnapshot }
  | { type: 'context.updated'; messageId: string; text: string; snapshot: ContextSnapshot }
  | { type: 'context.cleared' }
  | { type: 'prompt.admitted'; messageId: string; delivery: Delivery; prompt: Prompt }
  | { type: 'prompt.promoted'; messageId: string }
  | { type: 'assistant.started'; messageId: string; model: string }
  | { type: 'tool.called'; assistantMessageId: string; callId: string; name: string; input: string }
  | {
      type: 'tool.settled';
      assistantMessageId: string;
      callId: string;
      status: ToolStatus;
      output: string;
    }
  | {
      type: 'assistant.completed';
      messageId: string;
      text: string;
      finish: FinishReason;
      reasoning?: { text: string; signature?: string };
    }
  | { type: 'assistant.failed'; messageId: string; text: string; reason: AssistantFailure; message: string }
  | { type: 'session.failed'; code: SessionFailure; message: string };

/** Why a drain stopped without finishing its work. */
export type SessionFailure = 'turn-limit' | 'provider-error' | 'stream-cut' | 'context-unavailable' | 'context-invalid';

export interface StoredEvent {
  sessionId: string;
  seq: number;
  at: string;
  event: SessionEvent;
}
