import {
  errorResponse,
  splitIntoChunks,
  type ScriptedReasoning,
  type ScriptedToolCall,
  type EncodedTurn,
  type ScriptedWebSearch,
  type WireResponse,
} from '../scripted-turn.js';
import { mediaFields, type DecodedRequest, type ModelVisibleMessage } from '../captured-request.js';

/**
 * The Anthropic Messages wire dialect: named server-sent events. The `event:` line is part of the
 * protocol (Anthropic's SDK skips frames without one), so every frame carries it.
 */

const SSE_HEADERS = { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache' };

/** One content block as streamed: how it starts, then its deltas. */
interface StreamedBlock {
  start: object;
  deltas: object[];
}

/** `responseId` names the message: the API gives every response its own ID, and clients merge rows by it. */
export function encodeTurn(turn: EncodedTurn, model: string, responseId = 'msg_kit'): WireResponse {
  if (turn.kind === 'error') return errorResponse(turn);
  const blocks =
    turn.kind === 'text'
      ? [
          ...(turn.reasoning ? [thinkingBlock(turn.reasoning)] : []),
          ...(turn.webSearch ? webSearchBlocks(turn.webSearch) : []),
          textBlock(turn.text, turn.chunks),
        ]
      : [...(turn.webSearch ? webSearchBlocks(turn.webSearch) : []), ...turn.calls.map(toolUseBlock)];
  const { usage } = turn;
  const message = {
    model,
    id: responseId,
    type: 'message',
    role: 'assistant',
    content: [],
    stop_reason: null,
    stop_sequence: null,
  };
  return {
    status: 200,
    headers: SSE_HEADERS,
    frames: [
      frame({
        type: 'message_start',
        message: {
          ...message,
          usage: { input_tokens: usage?.input ?? 0, cache_read_input_tokens: usage?.cacheRead ?? 0, output_tokens: 0 },
        },
      }),
      ...blocks.flatMap((block, index) => [
        frame({ type: 'content_block_start', index, content_block: block.start }),
        ...block.deltas.map((delta) => frame({ type: 'content_block_delta', index, delta })),
        frame({ type: 'content_block_stop', index }),
      ]),
      frame({
        type: 'message_delta',
        delta: { stop_reason: turn.kind === 'text' ? 'end_turn' : 'tool_use', stop_sequence: null },
        usage: { output_tokens: usage?.output ?? 0 },
      }),
      frame({ type: 'message_stop' }),
    ],
  };
}

function textBlock(text: string, chunks: number): StreamedBlock {
  return {
    start: { type: 'text', text: '' },
    deltas: splitIntoChunks(text, chunks).map((piece) => ({ type: 'text_delta', text: piece })),
  };
}

function thinkingBlock(reasoning: ScriptedReasoning): StreamedBlock {
  return {
    start: { type: 'thinking', thinking: '', signature: '' },
    deltas: [
      ...splitIntoChunks(reasoning.text, reasoning.chunks ?? 1).map((piece) => ({
        type: 'thinking_delta',
        thinking: piece,
      })),
      { type: 'signature_delta', signature: reasoning.signature },
    ],
  };
}

/**
 * Who called a server tool, a field of the API's blocks that a runtime written before it does not
 * know: provider metadata a hosted block must be replayed with, unchanged (TOO-12).
 */
const CALLER = { type: 'direct' };

/** A server tool call and its result, as the API streams them: the result whole, in its start. */
function webSearchBlocks(search: ScriptedWebSearch): StreamedBlock[] {
  return [
    {
      start: { type: 'server_tool_use', id: search.id, name: 'web_search', input: {}, caller: CALLER },
      deltas: [{ type: 'input_json_delta', partial_json: JSON.stringify({ query: search.query }) }],
    },
    {
      start: { type: 'web_search_tool_result', tool_use_id: search.id, content: webSearchResults(search) },
      deltas: [],
    },
  ];
}

/** The blocks of a web search once streamed whole: what a runtime replays to the provider, field for field. */
export function webSearchContent(search: ScriptedWebSearch): object[] {
  return [
    { type: 'server_tool_use', id: search.id, name: 'web_search', input: { query: search.query }, caller: CALLER },
    { type: 'web_search_tool_result', tool_use_id: search.id, content: webSearchResults(search) },
  ];
}

/** Deterministic results whose opaque content is exactly `resultSize` characters each. */
export function webSearchResults(search: ScriptedWebSearch): object[] {
  return Array.from({ length: search.results }, (_, i) => ({
    type: 'web_search_result',
    url: `https://example.org/${search.query}/${i + 1}`,
    title: `Result ${i + 1} for ${search.query}`,
    encrypted_content: String.fromCharCode(65 + (i % 26)).repeat(search.resultSize),
    page_age: null,
  }));
}

/** Like the real API, the input starts empty and arrives as JSON text in pieces. */
function toolUseBlock(call: ScriptedToolCall): StreamedBlock {
  return {
    start: { type: 'tool_use', id: call.id, name: call.name, input: {} },
    deltas: ['', ...splitIntoChunks(call.rawInput ?? JSON.stringify(call.input), call.inputChunks ?? 2)].map(
      (piece) => ({ type: 'input_json_delta', partial_json: piece }),
    ),
  };
}

function frame(data: { type: string; [field: string]: unknown }): string {
  return `event: ${data.type}\ndata: ${JSON.stringify(data)}\n\n`;
}

type RequestBlock =
  | { type: 'text'; text: string }
  | { type: 'thinking'; thinking: string; signature?: string }
  | { type: 'tool_use'; id: string; name: string; input: unknown }
  | { type: 'tool_result'; tool_use_id: string; content?: string | ResultBlock[] }
  | { type: 'server_tool_use'; id: string; name: string; input: unknown }
  | { type: 'web_search_tool_result'; tool_use_id: string; content: unknown }
  | MediaBlock;

/** An image, or a document (a PDF), in a user turn or in a tool result. */
interface MediaBlock {
  type: 'image' | 'document';
  source?: { type?: string; media_type?: string };
}

type ResultBlock = { type: string; text?: string } | MediaBlock;

interface MessagesRequest {
  system?: string | { type: string; text?: string }[];
  messages?: { role: string; content: string | RequestBlock[] }[];
  tools?: { name?: string }[];
}

/**
 * Reads a captured request body into the dialect-neutral view the scenarios assert on: the
 * top-level `system` is the baseline, and each content block of a message is one neutral message,
 * except that the tool calls of one assistant message stay together, as in the other dialects.
 */
export function decodeRequest(body: unknown): DecodedRequest {
  const request = body as MessagesRequest;
  if (!Array.isArray(request?.messages)) throw new Error('request has no messages array');
  return {
    baseline: typeof request.system === 'string' ? [request.system] : textsOf(request.system ?? []),
    messages: request.messages.flatMap(({ role, content }) => {
      const blocks = typeof content === 'string' ? [{ type: 'text' as const, text: content }] : content;
      if (role === 'assistant') return assistantMessages(blocks);
      // A message of role system in the conversation is a mid-conversation system message.
      return role === 'system' ? systemMessages(blocks) : userMessages(blocks);
    }),
    tools: (request.tools ?? []).map((tool) => tool.name ?? ''),
  };
}

function userMessages(blocks: RequestBlock[]): ModelVisibleMessage[] {
  return blocks.flatMap((block): ModelVisibleMessage[] => {
    if (block.type === 'text') return [{ role: 'user', text: block.text }];
    if (block.type === 'image' || block.type === 'document')
      return [{ role: 'user', text: '', ...mediaFields([mediaTypeOf(block)]) }];
    if (block.type === 'tool_result') {
      const content = block.content ?? [];
      const output = typeof content === 'string' ? content : textsOf(content).join('');
      const media = typeof content === 'string' ? [] : content.filter(isMedia).map(mediaTypeOf);
      return [{ role: 'tool', text: output, toolCallId: block.tool_use_id, ...mediaFields(media) }];
    }
    return [];
  });
}

function systemMessages(blocks: RequestBlock[]): ModelVisibleMessage[] {
  return textsOf(blocks).map((text) => ({ role: 'system', text }));
}

/** A thinking block belongs to the assistant message that follows it within the same turn. */
function assistantMessages(blocks: RequestBlock[]): ModelVisibleMessage[] {
  const messages: ModelVisibleMessage[] = [];
  let reasoning: ModelVisibleMessage['reasoning'];
  let calls: NonNullable<ModelVisibleMessage['toolCalls']> | undefined;
  const add = (message: ModelVisibleMessage) => {
    messages.push(reasoning ? { ...message, reasoning } : message);
    reasoning = undefined;
  };
  for (const block of blocks) {
    if (block.type === 'thinking') {
      if (reasoning) add({ role: 'assistant', text: '' });
      reasoning = { text: block.thinking, ...(block.signature ? { signature: block.signature } : {}) };
    } else if (block.type === 'text') add({ role: 'assistant', text: block.text });
    else if (block.type === 'server_tool_use') {
      add({
        role: 'assistant',
        text: '',
        providerToolCall: { id: block.id, name: block.name, input: JSON.stringify(block.input) },
      });
    } else if (block.type === 'web_search_tool_result') {
      add({
        role: 'assistant',
        text: '',
        providerToolResult: { toolUseId: block.tool_use_id, content: JSON.stringify(block.content) },
      });
    } else if (block.type === 'tool_use') {
      const call = { id: block.id, name: block.name, input: JSON.stringify(block.input) };
      if (calls) calls.push(call);
      else {
        calls = [call];
        add({ role: 'assistant', text: '', toolCalls: calls });
      }
    }
  }
  if (reasoning) add({ role: 'assistant', text: '' });
  return messages;
}

function isMedia(block: { type: string }): block is MediaBlock {
  return block.type === 'image' || block.type === 'document';
}

/** A base64 or URL source names its media type; a document without one is a PDF, as the API reads it. */
function mediaTypeOf(block: MediaBlock): string {
  return block.source?.media_type ?? (block.type === 'document' ? 'application/pdf' : 'unknown');
}

function textsOf(blocks: { type: string; text?: string }[]): string[] {
  return blocks.filter((block) => block.type === 'text').map((block) => block.text ?? '');
}
