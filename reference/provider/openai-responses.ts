import type { EventSourceMessage } from 'eventsource-parser';
import type { AssistantMessage, ModelMessage, ToolMessage } from '../history/message.js';
import { INTERRUPTED_TOOL_OUTPUT } from '../history/message.js';
import type { FinishReason, Prompt, TokenUsage } from '../events/session-event.js';
import type { ProviderDialect, StreamDecoder } from './dialect.js';
import { ProviderRejected, StreamCut, type ProviderChunk } from './provider-turn-stream.js';
import type { ToolAttachment } from '../tools/tool.js';

const CONTEXT_OVERFLOW = 'context_length_exceeded';

/**
 * The OpenAI Responses dialect. The conversation is a list of input items: messages, function
 * calls and their outputs, and reasoning items. It has a chronological `system` role, so a
 * Mid-Conversation System Message goes in place. The first Baseline System Context part is the
 * `instructions`; any further parts follow as leading system messages, so each stays one part.
 */
export const openaiResponses: ProviderDialect = {
  isContextOverflow: (status, body) => (status === 400 || status === 200) && body.includes(CONTEXT_OVERFLOW),
  encode(request, config) {
    const [instructions, ...moreBaseline] = request.baseline;
    return {
      path: 'responses',
      headers: { authorization: `Bearer ${config.apiKey}` },
      body: {
        model: request.model,
        stream: true,
        // Nothing is kept on the provider's side: reasoning comes back encrypted, to be replayed.
        store: false,
        include: ['reasoning.encrypted_content'],
        ...(request.options ? { prompt_cache_key: request.options.promptCacheKey } : {}),
        ...(request.maxOutputTokens === undefined ? {} : { max_output_tokens: request.maxOutputTokens }),
        ...(instructions === undefined ? {} : { instructions }),
        input: [
          ...moreBaseline.map((text) => systemMessage(text)),
          ...request.history.flatMap((message) => toItems(message, request.model)),
        ],
        tools: request.tools.map((tool) => ({
          type: 'function',
          name: tool.name,
          description: tool.description,
          parameters: tool.parameters,
          strict: false,
        })),
      },
    };
  },
  decoder: () => new ResponsesDecoder(),
};

type InputItem =
  | { type: 'message'; role: 'user' | 'system'; content: InputContent[] }
  | { type: 'message'; role: 'assistant'; id?: string; content: { type: 'output_text'; text: string }[] }
  | { type: 'function_call'; call_id: string; name: string; arguments: string }
  | { type: 'function_call_output'; call_id: string; output: string | InputContent[] }
  | { type: 'reasoning'; summary: { type: 'summary_text'; text: string }[]; encrypted_content: string };

/** A prompt's content, or a function's output beside its text: text, images and other files. */
type InputContent =
  | { type: 'input_text'; text: string }
  | { type: 'input_image'; image_url: string }
  | { type: 'input_file'; filename: string; file_data: string };

function systemMessage(text: string): InputItem {
  return { type: 'message', role: 'system', content: [{ type: 'input_text', text }] };
}

function toItems(message: ModelMessage, model: string): InputItem[] {
  switch (message.role) {
    case 'user':
      return [{ type: 'message', role: 'user', content: userContent(message.prompt) }];
    case 'system':
      return [systemMessage(message.text)];
    case 'assistant':
      return assistantItems(message, model);
    case 'tool':
      return [{ type: 'function_call_output', call_id: message.callId, output: resultOutput(message) }];
  }
}

/** The output as text, and each image or file the tool returned as content of its own after it. */
function resultOutput(message: ToolMessage): string | InputContent[] {
  const text = message.output ?? INTERRUPTED_TOOL_OUTPUT;
  if (!message.attachments?.length) return text;
  return [{ type: 'input_text', text }, ...message.attachments.map(mediaContent)];
}

/** An image, or another file, as input content of its own. */
function mediaContent(attachment: ToolAttachment): InputContent {
  const url = `data:${attachment.mediaType};base64,${attachment.data}`;
  return attachment.mediaType.startsWith('image/')
    ? { type: 'input_image', image_url: url }
    : { type: 'input_file', filename: attachment.filename ?? 'file', file_data: url };
}

/**
 * AGT-06: encrypted reasoning and the answer's item ID go back only to the model that wrote them;
 * any other model reads the reasoning (and reasoning without its encrypted content) as plain
 * assistant text, and no ID.
 */
function assistantItems(message: AssistantMessage, model: string): InputItem[] {
  const { reasoning } = message;
  const signature = message.model === model ? reasoning?.signature : undefined;
  const itemId = message.model === model ? message.itemId : undefined;
  const said = (text: string): InputItem => ({
    type: 'message',
    role: 'assistant',
    content: [{ type: 'output_text', text }],
  });
  return [
    ...(reasoning && signature !== undefined
      ? [
          {
            type: 'reasoning' as const,
            summary: [{ type: 'summary_text' as const, text: reasoning.text }],
            encrypted_content: signature,
          },
        ]
      : []),
    ...(reasoning?.text && signature === undefined ? [said(reasoning.text)] : []),
    ...(message.text ? [{ ...said(message.text), ...(itemId === undefined ? {} : { id: itemId }) }] : []),
    ...message.toolCalls.map(
      (call): InputItem => ({ type: 'function_call', call_id: call.callId, name: call.name, arguments: call.input }),
    ),
  ];
}

function userContent(prompt: Prompt): InputContent[] {
  return prompt.parts.map((part) =>
    part.type === 'text' ? { type: 'input_text', text: part.text } : mediaContent(part),
  );
}

interface ResponseUsage {
  input_tokens: number;
  output_tokens: number;
  input_tokens_details?: { cached_tokens?: number };
}

interface ResponseBody {
  output?: { type: string }[];
  usage?: ResponseUsage | null;
  error?: { code?: string; message?: string } | null;
  incomplete_details?: { reason?: string } | null;
}

type ResponsesEvent =
  | {
      type: 'response.output_item.added' | 'response.output_item.done';
      output_index: number;
      item: { type: string; id?: string; call_id?: string; name?: string; encrypted_content?: string | null };
    }
  | { type: 'response.function_call_arguments.delta'; output_index: number; delta: string }
  | {
      type: 'response.output_text.delta' | 'response.reasoning_summary_text.delta' | 'response.reasoning_text.delta';
      delta: string;
    }
  | { type: 'response.completed' | 'response.incomplete' | 'response.failed'; response: ResponseBody }
  | { type: 'error'; code?: string | null; message?: string };

/**
 * Complete after `response.completed` or `response.incomplete`. A `response.failed` or `error`
 * event cuts the stream, except that a context overflow reported this way is the refusal it
 * stands for.
 */
class ResponsesDecoder implements StreamDecoder {
  complete = false;

  accept(message: EventSourceMessage): ProviderChunk[] {
    const event = JSON.parse(message.data) as ResponsesEvent;
    switch (event.type) {
      case 'response.output_item.added':
        if (event.item.type === 'message' && event.item.id) return [{ type: 'item-id', id: event.item.id }];
        return event.item.type === 'function_call'
          ? [{ type: 'tool-call', index: event.output_index, id: event.item.call_id, name: event.item.name }]
          : [];
      case 'response.output_item.done':
        return event.item.type === 'reasoning' && event.item.encrypted_content
          ? [{ type: 'reasoning-signature', signature: event.item.encrypted_content }]
          : [];
      case 'response.function_call_arguments.delta':
        return [{ type: 'tool-call', index: event.output_index, argumentsDelta: event.delta }];
      case 'response.output_text.delta':
        return [{ type: 'text', delta: event.delta }];
      case 'response.reasoning_summary_text.delta':
      case 'response.reasoning_text.delta':
        return [{ type: 'reasoning', delta: event.delta }];
      case 'response.completed':
      case 'response.incomplete':
        this.complete = true;
        return [
          ...(event.response.usage ? [{ type: 'usage' as const, usage: tokenUsage(event.response.usage) }] : []),
          { type: 'finish', reason: finishReason(event.type, event.response) },
        ];
      case 'response.failed': {
        const { code, message: text } = event.response.error ?? {};
        if (code === CONTEXT_OVERFLOW) throw new ProviderRejected(200, JSON.stringify({ error: event.response.error }));
        throw new StreamCut(`${code ?? 'failed'}: ${text ?? ''}`);
      }
      case 'error':
        throw new StreamCut(`${event.code ?? 'error'}: ${event.message ?? ''}`);
      default:
        return [];
    }
  }
}

/** The dialect's input tokens include the cached ones. */
function tokenUsage(usage: ResponseUsage): TokenUsage {
  const cacheRead = usage.input_tokens_details?.cached_tokens ?? 0;
  return { input: usage.input_tokens - cacheRead, cacheRead, output: usage.output_tokens };
}

function finishReason(type: string, response: ResponseBody): FinishReason {
  if (type === 'response.incomplete')
    return response.incomplete_details?.reason === 'max_output_tokens' ? 'length' : 'stop';
  return response.output?.some((item) => item.type === 'function_call') ? 'tool_calls' : 'stop';
}
