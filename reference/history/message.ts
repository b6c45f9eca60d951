import type { FinishReason, Prompt, ToolStatus } from '../events/session-event.js';

/** One projected session message, in durable event order. */
export type SessionMessage = UserMessage | AssistantMessage | ToolMessage;

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
