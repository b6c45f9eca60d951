import type { FinishReason, Prompt, TokenUsage, ToolStatus } from '../events/session-event.js';
import type { ToolAttachment } from '../tools/tool.js';

/** One projected session message, in durable event order. */
export type SessionMessage = UserMessage | AssistantMessage | ToolMessage | SystemMessage | CompactionMessage;

/** What a provider turn is built from: compaction checkpoints are lowered to plain user text first. */
export type ModelMessage = Exclude<SessionMessage, CompactionMessage>;

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
  /** Injected after a compaction (profile `continuation`), not typed by the user. */
  continuation?: true;
  /** The continuation stands for a message with media: its text only, never the media. */
  continuationOfMedia?: true;
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
  /** Blocks of tools the provider executed itself, replayed exactly as the provider sent them. */
  providerBlocks?: Record<string, unknown>[];
  /** Provider-native reasoning, replayable as such only to the model that produced it. */
  reasoning?: { text: string; signature?: string };
  /** The provider's own ID of the answer's text item, metadata replayed only to the model that produced it. */
  itemId?: string;
  /** The token usage the provider reported for this response. */
  usage?: TokenUsage;
}

/**
 * A completed compaction: the hidden checkpoint that stands, for the model, for every message up
 * to `cutSeq`. The full transcript before it stays durable.
 */
export interface CompactionMessage extends MessageBase {
  role: 'compaction';
  summary: string;
  recentContext: string;
  cutSeq: number;
}

/** A Mid-Conversation System Message: model-visible, hidden from user-facing transcripts. */
export interface SystemMessage extends MessageBase {
  role: 'system';
  text: string;
  /** The Context Sources whose changes it announces. */
  keys: string[];
}

export interface ToolMessage extends MessageBase {
  role: 'tool';
  status: 'running' | ToolStatus;
  assistantMessageId: string;
  callId: string;
  name: string;
  input: string;
  output?: string;
  structured?: unknown;
  outputPath?: string;
  /** The images and files the tool returned beside its text. */
  attachments?: ToolAttachment[];
  /**
   * Pruned (profile `sol`): the model reads the replacement text of the output (`PrunedMessage`)
   * instead of `output`, and in place of each attachment the one that says what it was; both stay durable.
   */
  pruned?: boolean;
}

/** What the model reads for a pruned tool output. */
export const PRUNED_TOOL_OUTPUT = '[Old tool result content cleared]';
/** What the model reads in place of a pruned tool result's image, and of its other files. */
export const PRUNED_IMAGE = '[Image removed from context]';
export const PRUNED_FILE = '[File removed from context]';

/** What was pruned, as `004`'s `PrunedInfo` describes it to the function that words its replacement. */
export interface PrunedInfo {
  type: 'tool_output' | 'image' | 'file';
  mimeType?: string;
  filename?: string;
}

/** `004`'s `PrunedMessage`: the replacement text of pruned content. */
export type PrunedMessage = (info: PrunedInfo) => string;

/** `004`'s `DefaultPrunedMessage`: names the kind of what was removed, a tool output, an image or another file. */
export const defaultPrunedMessage: PrunedMessage = ({ type }) =>
  type === 'tool_output' ? PRUNED_TOOL_OUTPUT : type === 'image' ? PRUNED_IMAGE : PRUNED_FILE;

/** What `PrunedMessage` is told of a pruned tool result's image or file. */
export function prunedAttachmentInfo(attachment: ToolAttachment): PrunedInfo {
  return {
    type: isImage(attachment) ? 'image' : 'file',
    mimeType: attachment.mediaType,
    ...(attachment.filename === undefined ? {} : { filename: attachment.filename }),
  };
}

export function isImage(attachment: ToolAttachment): boolean {
  return attachment.mediaType.startsWith('image/');
}

/** Provider call IDs repeat across turns, so a tool result is identified by its assistant message too. */
export function toolMessageId(assistantMessageId: string, callId: string): string {
  return `${assistantMessageId}/${callId}`;
}
