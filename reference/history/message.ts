import type { FinishReason, Prompt, ToolStatus } from '../events/session-event.js';

/** One projected session message, in durable event order. */
export type SessionMessage = UserMessage | AssistantMessage | ToolMessage | SystemMessage;

/** What the model reads for a tool whose execution was interrupted. */
export const INTERRUPTED_TOOL_OUTPUT = 'Tool execution interrupted';

interface MessageBase {
  id: string;
  seq: number;
  hidden: boolean;
}

export interface UserMessage extends MessageBase {
  role: 'user';
  prompt: Prompt;
}

export interface ToolCall {
  callId: string;
  name: string;
  input: string;
}

export interface AssistantMessage extends MessageBase {
  role: 'assistant';
  status: 'streaming' | 'completed' | 'failed';
  model: string;
  text: string;
  toolCalls: ToolCall[];
  finish?: FinishReason;
  /** Provider-native reasoning, replayable as such only to the model that produced it. */
  reasoning?: { text: string; signature?: string };
}

/** A Mid-Conversation System Message: model-visible, hidden from user-facing transcripts. */
export interface SystemMessage extends MessageBase {
  role: 'system';
  text: string;
}

export interface ToolMessage extends MessageBase {
  role: 'tool';
  status: 'running' | ToolStatus;
  assistantMessageId: string;
  callId: string;
  name: string;
  input: string;
  output?: string;
}

/** Provider call IDs repeat across turns, so a tool result is identified by its assistant message too. */
export function toolMessageId(assistantMessageId: string, callId: string): string {
  return `${assistantMessageId}/${callId}`;
}
