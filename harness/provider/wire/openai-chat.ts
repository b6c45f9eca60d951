import {
  errorResponse,
  freeformInput,
  splitIntoChunks,
  type EncodedTurn,
  type ScriptedUsage,
  type WireResponse,
} from '../scripted-turn.js';
import { dataUrlType, mediaFields, type DecodedRequest, type ModelVisibleMessage } from '../captured-request.js';
import type { WireRequest } from './dialect.js';

/**
 * The OpenAI Chat Completions wire dialect: server-sent `chat.completion.chunk` frames. It has no
 * replayable reasoning, so a text turn's reasoning is not sent.
 */

const SSE_HEADERS = { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' };

export function encodeTurn(
  turn: EncodedTurn,
  model: string,
  _responseId?: string,
  request?: WireRequest,
): WireResponse {
  const chunk = (delta: object, finish: string | null = null) =>
    frame({
      id: 'chatcmpl-kit',
      object: 'chat.completion.chunk',
      created: 0,
      model,
      choices: [{ index: 0, delta, finish_reason: finish }],
    });
  switch (turn.kind) {
    case 'text':
      return stream([
        chunk({ role: 'assistant', content: '' }),
        ...splitIntoChunks(turn.text, turn.chunks).map((content) => chunk({ content })),
        chunk({}, 'stop'),
        ...(turn.usage ? [usageChunk(turn.usage, model)] : []),
        'data: [DONE]\n\n',
      ]);
    case 'tool-calls': {
      const freeform = freeformTools(request?.body);
      return stream([
        chunk({ role: 'assistant', content: null }),
        ...turn.calls.flatMap((call, index) => {
          // A tool offered as free-form (`custom`) is called with text in `custom.input`, not JSON arguments.
          if (freeform.has(call.name)) {
            const [head, ...tail] = splitIntoChunks(freeformInput(call), call.inputChunks ?? 2);
            return [
              chunk({ tool_calls: [{ index, id: call.id, type: 'custom', custom: { name: call.name, input: head } }] }),
              ...tail.map((piece) => chunk({ tool_calls: [{ index, custom: { input: piece } }] })),
            ];
          }
          const [head, ...tail] = splitIntoChunks(call.rawInput ?? JSON.stringify(call.input), call.inputChunks ?? 2);
          return [
            chunk({
              tool_calls: [{ index, id: call.id, type: 'function', function: { name: call.name, arguments: head } }],
            }),
            ...tail.map((piece) => chunk({ tool_calls: [{ index, function: { arguments: piece } }] })),
          ];
        }),
        chunk({}, 'tool_calls'),
        ...(turn.usage ? [usageChunk(turn.usage, model)] : []),
        'data: [DONE]\n\n',
      ]);
    }
    case 'error':
      return errorResponse(turn);
  }
}

/** The dialect reports usage in a last chunk without choices; its prompt tokens include the cached ones. */
function usageChunk(usage: ScriptedUsage, model: string): string {
  const prompt = usage.input + usage.cacheRead;
  return frame({
    id: 'chatcmpl-kit',
    object: 'chat.completion.chunk',
    created: 0,
    model,
    choices: [],
    usage: {
      prompt_tokens: prompt,
      completion_tokens: usage.output,
      total_tokens: prompt + usage.output,
      prompt_tokens_details: { cached_tokens: usage.cacheRead },
    },
  });
}

function stream(frames: string[]): WireResponse {
  return { status: 200, headers: SSE_HEADERS, frames };
}

function frame(data: object): string {
  return `data: ${JSON.stringify(data)}\n\n`;
}

interface ChatContentPart {
  type: string;
  text?: string;
  image_url?: { url?: string };
  file?: { file_data?: string; file_id?: string; filename?: string };
}

interface ChatRequestMessage {
  role: string;
  content?: string | null | ChatContentPart[];
  tool_calls?: {
    id: string;
    function?: { name: string; arguments: string };
    custom?: { name: string; input: string };
  }[];
  tool_call_id?: string;
}

/**
 * Reads a captured request body into the dialect-neutral view the scenarios assert on. The
 * system messages before the first other message are the baseline; later ones are chronological.
 */
export function decodeRequest(body: unknown): DecodedRequest {
  // A tool is a function, or a custom tool taking free-form input (Chat Completions' `type: "custom"`).
  const request = body as {
    messages?: ChatRequestMessage[];
    tools?: { function?: { name?: string }; custom?: { name?: string } }[];
  };
  if (!Array.isArray(request?.messages)) throw new Error('request has no messages array');
  const firstOther = request.messages.findIndex((message) => message.role !== 'system');
  const split = firstOther < 0 ? request.messages.length : firstOther;
  return {
    baseline: request.messages.slice(0, split).map((message) => textOf(message.content)),
    messages: request.messages.slice(split).map(
      (message): ModelVisibleMessage => ({
        role: message.role,
        text: textOf(message.content),
        ...(message.tool_calls
          ? {
              toolCalls: message.tool_calls.map((call) => ({
                id: call.id,
                name: call.function?.name ?? call.custom?.name ?? '',
                input: call.function?.arguments ?? call.custom?.input ?? '',
              })),
            }
          : {}),
        ...(message.tool_call_id ? { toolCallId: message.tool_call_id } : {}),
        ...mediaOf(message.content),
      }),
    ),
    tools: (request.tools ?? []).map((tool) => tool.function?.name ?? tool.custom?.name ?? ''),
  };
}

/** Images by their data URL, and files (a PDF as `file_data`, or by an uploaded file's ID). */
function mediaOf(content: ChatRequestMessage['content']): Pick<ModelVisibleMessage, 'media' | 'mediaTypes'> {
  if (!Array.isArray(content)) return {};
  return mediaFields(
    content.flatMap((part) => {
      if (part.type === 'image_url') return [dataUrlType(part.image_url?.url)];
      if (part.type === 'file')
        return [part.file?.file_data === undefined ? 'application/pdf' : dataUrlType(part.file.file_data)];
      return [];
    }),
  );
}

function textOf(content: ChatRequestMessage['content']): string {
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) return content.map((part) => part.text ?? '').join('');
  return '';
}

/** The tools a request offers as free-form (`custom`) tools, which take plain text, not JSON. */
function freeformTools(body: unknown): Set<string> {
  const tools = (body as { tools?: { type?: string; custom?: { name?: string } }[] } | undefined)?.tools ?? [];
  return new Set(tools.flatMap((tool) => (tool.type === 'custom' && tool.custom?.name ? [tool.custom.name] : [])));
}
