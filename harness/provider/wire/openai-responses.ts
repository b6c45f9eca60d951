import {
  errorResponse,
  freeformInput,
  splitIntoChunks,
  type ScriptedReasoning,
  type ScriptedToolCall,
  type EncodedTurn,
  type ScriptedUsage,
  type ScriptedWebSearch,
  type WireResponse,
} from '../scripted-turn.js';
import { dataUrlType, mediaFields, type DecodedRequest, type ModelVisibleMessage } from '../captured-request.js';
import type { WireRequest } from './dialect.js';

/**
 * The OpenAI Responses wire dialect: named server-sent `response.*` events, each numbered by
 * `sequence_number`. A response is a list of output items (reasoning, message, function call),
 * each announced by `response.output_item.added`, filled by deltas and closed by
 * `response.output_item.done`; `response.completed` carries the whole response with its usage.
 * Replayable reasoning is a reasoning item: its summary is the text, its `encrypted_content` the
 * signature a client sends back.
 */

const SSE_HEADERS = { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache' };

/** One output item as streamed: its events between `added` and `done`, and the finished item. */
interface StreamedItem {
  added: Record<string, unknown>;
  events: (itemRef: { item_id: string; output_index: number }) => Record<string, unknown>[];
  done: Record<string, unknown>;
}

/** `responseId` names the response; its items are named after it so they differ between responses. */
export function encodeTurn(
  turn: EncodedTurn,
  model: string,
  responseId = 'resp_kit',
  request?: WireRequest,
): WireResponse {
  if (turn.kind === 'error') return errorResponse(turn);
  const freeform = freeformTools(request?.body);
  const suffix = responseId.replace(/^[a-z]+_/, '');
  const items =
    turn.kind === 'text'
      ? [
          ...(turn.reasoning ? [reasoningItem(`rs_${suffix}`, turn.reasoning)] : []),
          ...(turn.webSearch ? [webSearchItem(turn.webSearch)] : []),
          messageItem(`msg_${suffix}`, turn.text, turn.chunks),
        ]
      : [
          ...(turn.webSearch ? [webSearchItem(turn.webSearch)] : []),
          ...turn.calls.map((call, index) =>
            freeform.has(call.name)
              ? customToolCallItem(`ctc_${suffix}_${index}`, call)
              : functionCallItem(`fc_${suffix}_${index}`, call),
          ),
        ];
  const response = (status: string, output: object[], usage: object | null) => ({
    id: `resp_${suffix}`,
    object: 'response',
    created_at: 0,
    status,
    error: null,
    incomplete_details: null,
    instructions: null,
    max_output_tokens: null,
    model,
    output,
    parallel_tool_calls: true,
    previous_response_id: null,
    reasoning: { effort: null, summary: null },
    store: false,
    temperature: 1,
    text: { format: { type: 'text' } },
    tool_choice: 'auto',
    tools: [],
    top_p: 1,
    truncation: 'disabled',
    usage,
    metadata: {},
  });
  const events: Record<string, unknown>[] = [
    { type: 'response.created', response: response('in_progress', [], null) },
    { type: 'response.in_progress', response: response('in_progress', [], null) },
    ...items.flatMap((item, output_index) => [
      { type: 'response.output_item.added', output_index, item: item.added },
      ...item.events({ item_id: item.added.id as string, output_index }),
      { type: 'response.output_item.done', output_index, item: item.done },
    ]),
    {
      type: 'response.completed',
      response: response(
        'completed',
        items.map((item) => item.done),
        usageOf(turn.usage ?? { input: 0, cacheRead: 0, output: 0 }),
      ),
    },
  ];
  return {
    status: 200,
    headers: SSE_HEADERS,
    frames: events.map((event, sequence_number) => frame({ ...event, sequence_number })),
  };
}

/** The dialect's input tokens include the cached ones. */
function usageOf(usage: ScriptedUsage): object {
  const input = usage.input + usage.cacheRead;
  return {
    input_tokens: input,
    input_tokens_details: { cached_tokens: usage.cacheRead },
    output_tokens: usage.output,
    output_tokens_details: { reasoning_tokens: 0 },
    total_tokens: input + usage.output,
  };
}

function messageItem(id: string, text: string, chunks: number): StreamedItem {
  const part = (content: string) => ({ type: 'output_text', text: content, annotations: [] });
  const item = (status: string, content: object[]) => ({ id, type: 'message', status, role: 'assistant', content });
  return {
    added: item('in_progress', []),
    events: (ref) => [
      { type: 'response.content_part.added', ...ref, content_index: 0, part: part('') },
      ...splitIntoChunks(text, chunks).map((delta) => ({
        type: 'response.output_text.delta',
        ...ref,
        content_index: 0,
        delta,
        logprobs: [],
      })),
      { type: 'response.output_text.done', ...ref, content_index: 0, text, logprobs: [] },
      { type: 'response.content_part.done', ...ref, content_index: 0, part: part(text) },
    ],
    done: item('completed', [part(text)]),
  };
}

function reasoningItem(id: string, reasoning: ScriptedReasoning): StreamedItem {
  const summary = (text: string) => ({ type: 'summary_text', text });
  return {
    added: { id, type: 'reasoning', summary: [], encrypted_content: null },
    events: (ref) => [
      { type: 'response.reasoning_summary_part.added', ...ref, summary_index: 0, part: summary('') },
      ...splitIntoChunks(reasoning.text, reasoning.chunks ?? 1).map((delta) => ({
        type: 'response.reasoning_summary_text.delta',
        ...ref,
        summary_index: 0,
        delta,
      })),
      { type: 'response.reasoning_summary_text.done', ...ref, summary_index: 0, text: reasoning.text },
      { type: 'response.reasoning_summary_part.done', ...ref, summary_index: 0, part: summary(reasoning.text) },
    ],
    done: { id, type: 'reasoning', summary: [summary(reasoning.text)], encrypted_content: reasoning.signature },
  };
}

/**
 * A web search the provider runs itself. The API streams only the call and its query; the results
 * reach the model but not the client, so the scripted results have no wire form here.
 */
function webSearchItem(search: ScriptedWebSearch): StreamedItem {
  const { id } = search;
  const item = (status: string) => ({
    id,
    type: 'web_search_call',
    status,
    action: { type: 'search', query: search.query },
  });
  return {
    added: { id, type: 'web_search_call', status: 'in_progress' },
    events: (ref) =>
      ['in_progress', 'searching', 'completed'].map((phase) => ({ type: `response.web_search_call.${phase}`, ...ref })),
    done: item('completed'),
  };
}

/** Like the real API, the arguments start empty and arrive as JSON text in pieces. */
function functionCallItem(id: string, call: ScriptedToolCall): StreamedItem {
  return streamedCall(id, call, call.rawInput ?? JSON.stringify(call.input), {
    type: 'function_call',
    field: 'arguments',
    events: 'response.function_call_arguments',
  });
}

/** The tools a request offers as free-form (`custom`) tools, which take plain text, not JSON. */
function freeformTools(request: unknown): Set<string> {
  const tools = (request as ResponsesRequest | undefined)?.tools ?? [];
  return new Set(tools.filter((tool) => tool.type === 'custom' && tool.name).map((tool) => tool.name ?? ''));
}

/** A call of a free-form tool, as the real API streams it: its input is text, not JSON. */
function customToolCallItem(id: string, call: ScriptedToolCall): StreamedItem {
  return streamedCall(id, call, freeformInput(call), {
    type: 'custom_tool_call',
    field: 'input',
    events: 'response.custom_tool_call_input',
  });
}

/** A call item whose `field` starts empty and streams in deltas, then done with the whole input. */
function streamedCall(
  id: string,
  call: ScriptedToolCall,
  input: string,
  kind: { type: string; field: string; events: string },
): StreamedItem {
  const item = (status: string, value: string) => ({
    id,
    type: kind.type,
    status,
    [kind.field]: value,
    call_id: call.id,
    name: call.name,
  });
  return {
    added: item('in_progress', ''),
    events: (ref) => [
      ...splitIntoChunks(input, call.inputChunks ?? 2).map((delta) => ({
        type: `${kind.events}.delta`,
        ...ref,
        delta,
      })),
      { type: `${kind.events}.done`, ...ref, [kind.field]: input },
    ],
    done: item('completed', input),
  };
}

function frame(data: { type?: unknown; [field: string]: unknown }): string {
  return `event: ${String(data.type)}\ndata: ${JSON.stringify(data)}\n\n`;
}

type ContentPart = { type: string; text?: string; image_url?: string; file_data?: string; file_id?: string };

type InputItem =
  | { type?: 'message'; role: string; content: string | ContentPart[] }
  | { type: 'function_call'; call_id: string; name: string; arguments: string }
  | { type: 'function_call_output'; call_id: string; output: string | ContentPart[] }
  | { type: 'web_search_call'; id: string; action?: unknown }
  | { type: 'custom_tool_call'; call_id: string; name: string; input: string }
  | { type: 'custom_tool_call_output'; call_id: string; output: string | ContentPart[] }
  | { type: 'local_shell_call'; call_id: string; action: unknown }
  /** Answers the local shell call whose `call_id` is its `id`. */
  | { type: 'local_shell_call_output'; id: string; output: string }
  | { type: 'reasoning'; summary?: ContentPart[]; content?: ContentPart[]; encrypted_content?: string | null };

interface ResponsesRequest {
  instructions?: string | null;
  input?: string | InputItem[];
  tools?: { type?: string; name?: string }[];
}

/**
 * Reads a captured request body into the dialect-neutral view the scenarios assert on:
 * `instructions` and the system or developer messages before the first other item are the
 * baseline; later ones are chronological. Consecutive calls of client tools (functions, free-form
 * tools, the local shell) are one assistant message with several calls, as in the other dialects;
 * a reasoning item belongs to the assistant message that follows it. Items that stand for nothing
 * the model reads anew (item references) are left out.
 */
export function decodeRequest(body: unknown): DecodedRequest {
  const request = body as ResponsesRequest;
  const input: InputItem[] =
    typeof request?.input === 'string' ? [{ role: 'user', content: request.input }] : (request?.input ?? []);
  if (!Array.isArray(input)) throw new Error('request has no input array');
  const isSystem = (item: InputItem) =>
    (item.type ?? 'message') === 'message' && ['system', 'developer'].includes((item as { role: string }).role);
  const firstOther = input.findIndex((item) => !isSystem(item));
  const split = firstOther < 0 ? input.length : firstOther;
  return {
    baseline: [
      ...(request.instructions ? [request.instructions] : []),
      ...input.slice(0, split).map((item) => textOf((item as { content: string | ContentPart[] }).content)),
    ],
    messages: conversation(input.slice(split)),
    tools: (request.tools ?? []).map((tool) => tool.name ?? tool.type ?? ''),
  };
}

function conversation(items: InputItem[]): ModelVisibleMessage[] {
  const messages: ModelVisibleMessage[] = [];
  let reasoning: ModelVisibleMessage['reasoning'];
  let calls: NonNullable<ModelVisibleMessage['toolCalls']> | undefined;
  const add = (message: ModelVisibleMessage) => {
    // Reasoning nothing of the model's follows is an assistant message of its own.
    if (reasoning && message.role !== 'assistant') messages.push({ role: 'assistant', text: '', reasoning });
    messages.push(reasoning && message.role === 'assistant' ? { ...message, reasoning } : message);
    reasoning = undefined;
    calls = undefined;
  };
  for (const item of items) {
    const call = toolCallOf(item);
    if (item.type === 'reasoning') {
      if (reasoning) add({ role: 'assistant', text: '' });
      reasoning = {
        text: textOf(item.summary?.length ? item.summary : (item.content ?? [])),
        ...(item.encrypted_content ? { signature: item.encrypted_content } : {}),
      };
    } else if (call) {
      if (calls) calls.push(call);
      else {
        const started = [call];
        add({ role: 'assistant', text: '', toolCalls: started });
        calls = started;
      }
    } else if (item.type === 'web_search_call') {
      add({
        role: 'assistant',
        text: '',
        providerToolCall: { id: item.id, name: 'web_search', input: JSON.stringify(item.action ?? {}) },
      });
    } else if (
      item.type === 'function_call_output' ||
      item.type === 'custom_tool_call_output' ||
      item.type === 'local_shell_call_output'
    ) {
      add({
        role: 'tool',
        text: textOf(item.output),
        toolCallId: 'call_id' in item ? item.call_id : item.id,
        ...mediaOf(item.output),
      });
    } else if (item.type === undefined || item.type === 'message') {
      const role = item.role === 'developer' ? 'system' : item.role;
      add({ role, text: textOf(item.content), ...mediaOf(item.content) });
    }
  }
  if (reasoning) add({ role: 'assistant', text: '' });
  return messages;
}

/** A call of a tool the client runs: a function, a free-form (custom) tool, or the local shell. */
function toolCallOf(item: InputItem): { id: string; name: string; input: string } | undefined {
  if (item.type === 'function_call') return { id: item.call_id, name: item.name, input: item.arguments };
  if (item.type === 'custom_tool_call') return { id: item.call_id, name: item.name, input: item.input };
  if (item.type === 'local_shell_call')
    return { id: item.call_id, name: 'local_shell', input: JSON.stringify(item.action) };
  return undefined;
}

/** Images by their data URL, and files by theirs (a file uploaded before, by its ID, is of a type the request does not say). */
function mediaOf(content: string | ContentPart[]): Pick<ModelVisibleMessage, 'media' | 'mediaTypes'> {
  if (!Array.isArray(content)) return {};
  return mediaFields(
    content.flatMap((part) => {
      if (part.type === 'input_image') return [dataUrlType(part.image_url)];
      if (part.type === 'input_file') return [dataUrlType(part.file_data)];
      return [];
    }),
  );
}

function textOf(content: string | ContentPart[]): string {
  if (typeof content === 'string') return content;
  return content.map((part) => part.text ?? '').join('');
}
