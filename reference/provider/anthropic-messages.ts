import type { EventSourceMessage } from 'eventsource-parser';
import type { AssistantMessage, ModelMessage, ToolMessage } from '../history/message.js';
import { INTERRUPTED_TOOL_OUTPUT, isImage } from '../history/message.js';
import type { FinishReason } from '../events/session-event.js';
import type { ProviderDialect, StreamDecoder } from './dialect.js';
import { StreamCut, type ProviderChunk } from './provider-turn-stream.js';
import { wrapSystemFallback } from './system-fallback.js';
import type { ToolAttachment } from '../tools/tool.js';

/** The provider's own web search, offered on every turn: its results are replayed as sent. */
const WEB_SEARCH = { type: 'web_search_20250305', name: 'web_search', max_uses: 5 };

/**
 * The Anthropic Messages dialect. User and assistant turns must alternate and it has no
 * chronological system role, so a Mid-Conversation System Message is wrapped into the user side.
 */
export const anthropicMessages: ProviderDialect = {
  isContextOverflow: (status, body) => status === 400 && /prompt is too long/i.test(body),
  encode(request, config) {
    return {
      path: 'messages',
      headers: { 'x-api-key': config.apiKey, 'anthropic-version': '2023-06-01' },
      body: {
        model: request.model,
        max_tokens: request.maxOutputTokens ?? 8192,
        stream: true,
        ...(request.baseline.length ? { system: request.baseline.map((text) => ({ type: 'text', text })) } : {}),
        messages: toTurns(request.history, request.model),
        tools: [
          ...request.tools.map((tool) => ({
            name: tool.name,
            description: tool.description,
            input_schema: tool.parameters,
          })),
          WEB_SEARCH,
        ],
      },
    };
  },
  decoder: () => new MessagesDecoder(),
};

type ContentBlock =
  | { type: 'text'; text: string }
  | MediaBlock
  | { type: 'thinking'; thinking: string; signature: string }
  | { type: 'tool_use'; id: string; name: string; input: unknown }
  | { type: 'tool_result'; tool_use_id: string; content: string | ResultBlock[]; is_error?: true };

/** An image, or a PDF as a document: in a prompt, or in a tool result beside its text. */
type MediaBlock = { type: 'image' | 'document'; source: { type: 'base64'; media_type: string; data: string } };
type ResultBlock = { type: 'text'; text: string } | MediaBlock;

interface Turn {
  role: 'user' | 'assistant';
  content: ContentBlock[];
}

/**
 * Session History as alternating turns, in chronological order: tool results, prompts and wrapped
 * system messages all go to the user side, and adjacent content of one side shares one turn. Tool
 * results follow their assistant turn in call order, because they are recorded as the calls are.
 */
function toTurns(history: ModelMessage[], model: string): Turn[] {
  const turns: Turn[] = [];
  for (const message of history) {
    const [role, blocks] = turnContent(message, model);
    if (blocks.length === 0) continue;
    const last = turns.at(-1);
    if (last?.role === role) last.content.push(...blocks);
    else turns.push({ role, content: blocks });
  }
  return turns;
}

function turnContent(message: ModelMessage, model: string): [Turn['role'], ContentBlock[]] {
  switch (message.role) {
    case 'user':
      return [
        'user',
        message.prompt.parts.map(
          (part): ContentBlock => (part.type === 'text' ? { type: 'text', text: part.text } : mediaBlock(part)),
        ),
      ];
    case 'system':
      return ['user', [{ type: 'text', text: wrapSystemFallback(message.text) }]];
    case 'tool':
      return [
        'user',
        [
          {
            type: 'tool_result',
            tool_use_id: message.callId,
            content: resultContent(message),
            ...(message.status === 'success' ? {} : { is_error: true as const }),
          },
        ],
      ];
    case 'assistant':
      return ['assistant', assistantContent(message, model)];
  }
}

/** The output as text, and each image or file the tool returned as a block of its own after it. */
function resultContent(message: ToolMessage): string | ResultBlock[] {
  const text = message.output ?? INTERRUPTED_TOOL_OUTPUT;
  if (!message.attachments?.length) return text;
  return [{ type: 'text', text }, ...message.attachments.map(mediaBlock)];
}

/** An image as an image block, another file as a document. */
function mediaBlock(attachment: ToolAttachment): MediaBlock {
  return {
    type: isImage(attachment) ? 'image' : 'document',
    source: { type: 'base64', media_type: attachment.mediaType, data: attachment.data },
  };
}

/**
 * AGT-06: the signed thinking block goes back only to the model that wrote it; any other model
 * (and any reasoning without a signature, which the API would refuse) reads it as plain text.
 */
function assistantContent(message: AssistantMessage, model: string): ContentBlock[] {
  const { reasoning } = message;
  const signature = message.model === model ? reasoning?.signature : undefined;
  return [
    ...(reasoning && signature !== undefined
      ? [{ type: 'thinking' as const, thinking: reasoning.text, signature }]
      : []),
    ...(reasoning?.text && signature === undefined ? [{ type: 'text' as const, text: reasoning.text }] : []),
    ...((message.providerBlocks ?? []) as ContentBlock[]),
    ...(message.text ? [{ type: 'text' as const, text: message.text }] : []),
    ...message.toolCalls.map((call) => ({
      type: 'tool_use' as const,
      id: call.callId,
      name: call.name,
      // A call without arguments streams no input JSON; the API wants an object.
      input: call.input === '' ? {} : (JSON.parse(call.input) as unknown),
    })),
  ];
}

type MessagesEvent =
  | {
      type: 'content_block_start';
      index: number;
      content_block: { type: string; id?: string; name?: string; [field: string]: unknown };
    }
  | {
      type: 'content_block_delta';
      index: number;
      delta:
        | { type: 'text_delta'; text: string }
        | { type: 'input_json_delta'; partial_json: string }
        | { type: 'thinking_delta'; thinking: string }
        | { type: 'signature_delta'; signature: string };
    }
  | { type: 'message_delta'; delta: { stop_reason?: string | null } }
  | { type: 'message_stop' }
  | { type: 'error'; error: { type: string; message: string } }
  | { type: 'message_start' | 'content_block_stop' | 'ping' };

/** Blocks of tools the provider runs itself: `server_tool_use` and their `*_tool_result`. */
const isProviderExecuted = (type: string) => type === 'server_tool_use' || type.endsWith('_tool_result');

/** Complete only after `message_stop`; an `error` event mid-stream cuts the stream. */
class MessagesDecoder implements StreamDecoder {
  complete = false;
  private readonly providerBlocks = new Set<number>();

  accept(message: EventSourceMessage): ProviderChunk[] {
    const event = JSON.parse(message.data) as MessagesEvent;
    switch (event.type) {
      case 'content_block_start': {
        const block = event.content_block;
        if (isProviderExecuted(block.type)) {
          this.providerBlocks.add(event.index);
          return [{ type: 'provider-block', index: event.index, block }];
        }
        return block.type === 'tool_use'
          ? [{ type: 'tool-call', index: event.index, id: block.id, name: block.name }]
          : [];
      }
      case 'content_block_delta':
        if (this.providerBlocks.has(event.index) && event.delta.type === 'input_json_delta') {
          return [{ type: 'provider-block-input', index: event.index, delta: event.delta.partial_json }];
        }
        return deltaChunks(event.index, event.delta);
      case 'message_delta':
        return event.delta.stop_reason ? [{ type: 'finish', reason: finishReason(event.delta.stop_reason) }] : [];
      case 'message_stop':
        this.complete = true;
        return [];
      case 'error':
        throw new StreamCut(`${event.error.type}: ${event.error.message}`);
      default:
        return [];
    }
  }
}

/** Deltas of kinds the runtime does not keep (citations) yield nothing. */
function deltaChunks(
  index: number,
  delta: Extract<MessagesEvent, { type: 'content_block_delta' }>['delta'],
): ProviderChunk[] {
  switch (delta.type) {
    case 'text_delta':
      return [{ type: 'text', delta: delta.text }];
    case 'input_json_delta':
      return [{ type: 'tool-call', index, argumentsDelta: delta.partial_json }];
    case 'thinking_delta':
      return [{ type: 'reasoning', delta: delta.thinking }];
    case 'signature_delta':
      return [{ type: 'reasoning-signature', signature: delta.signature }];
    default:
      return [];
  }
}

function finishReason(reason: string): FinishReason {
  if (reason === 'tool_use') return 'tool_calls';
  if (reason === 'max_tokens') return 'length';
  return 'stop';
}
