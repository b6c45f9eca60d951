import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Stream } from 'openai/core/streaming';
import { ResponseStream } from 'openai/lib/responses/ResponseStream';
import type { ResponseStreamEvent } from 'openai/resources/responses/responses';
import { renderRequest } from '../../projection/render.js';
import { decodeRequest, encodeTurn } from './openai-responses.js';

/** A request as a Responses client sends it: instructions, a developer message, and every kind of input item. */
const REQUEST = {
  model: 'kit-model',
  stream: true,
  store: false,
  instructions: 'You are a coding agent.',
  input: [
    { type: 'message', role: 'developer', content: [{ type: 'input_text', text: 'Sandbox: read-only.' }] },
    {
      type: 'message',
      role: 'user',
      content: [
        { type: 'input_text', text: 'What is in this picture?' },
        { type: 'input_image', image_url: 'data:image/png;base64,AAAA' },
      ],
    },
    {
      type: 'reasoning',
      summary: [
        { type: 'summary_text', text: 'Look at it, ' },
        { type: 'summary_text', text: 'then list files.' },
      ],
      encrypted_content: 'gAAAAB-kit',
    },
    { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'A cat. Listing files.' }] },
    { type: 'function_call', call_id: 'call_a', name: 'ls', arguments: '{"path":"."}' },
    { type: 'function_call', call_id: 'call_b', name: 'ls', arguments: '{"path":"src"}' },
    { type: 'function_call_output', call_id: 'call_a', output: 'README.md' },
    {
      type: 'function_call_output',
      call_id: 'call_b',
      output: [
        { type: 'input_text', text: 'main.ts' },
        { type: 'input_image', image_url: 'data:image/png;base64,AAAA' },
        { type: 'input_file', filename: 'brief.pdf', file_data: 'data:application/pdf;base64,JVBERi0=' },
      ],
    },
    { type: 'message', role: 'developer', content: 'The clock moved on.' },
    { role: 'user', content: 'Thanks.' },
  ],
  tools: [
    { type: 'function', name: 'ls', description: 'Lists files.', parameters: { type: 'object' }, strict: false },
    { type: 'web_search' },
  ],
};

test('a Responses request decodes to the whole neutral conversation', () => {
  assert.deepEqual(decodeRequest(REQUEST), {
    baseline: ['You are a coding agent.', 'Sandbox: read-only.'],
    messages: [
      { role: 'user', text: 'What is in this picture?', media: 1, mediaTypes: ['image/png'] },
      {
        role: 'assistant',
        text: 'A cat. Listing files.',
        reasoning: { text: 'Look at it, then list files.', signature: 'gAAAAB-kit' },
      },
      {
        role: 'assistant',
        text: '',
        toolCalls: [
          { id: 'call_a', name: 'ls', input: '{"path":"."}' },
          { id: 'call_b', name: 'ls', input: '{"path":"src"}' },
        ],
      },
      { role: 'tool', text: 'README.md', toolCallId: 'call_a' },
      {
        role: 'tool',
        text: 'main.ts',
        toolCallId: 'call_b',
        media: 2,
        mediaTypes: ['image/png', 'application/pdf'],
      },
      { role: 'system', text: 'The clock moved on.' },
      { role: 'user', text: 'Thanks.' },
    ],
    tools: ['ls', 'web_search'],
  });
});

test('reasoning no assistant output follows is an assistant message of its own', () => {
  const decoded = decodeRequest({
    input: [
      { role: 'user', content: 'Hi.' },
      { type: 'reasoning', summary: [{ type: 'summary_text', text: 'Hm.' }] },
      { role: 'user', content: 'Hello?' },
    ],
  });
  assert.deepEqual(decoded.messages, [
    { role: 'user', text: 'Hi.' },
    { role: 'assistant', text: '', reasoning: { text: 'Hm.' } },
    { role: 'user', text: 'Hello?' },
  ]);
});

test('a request without an input array is refused', () => {
  assert.throws(() => decodeRequest({ model: 'kit-model', input: 7 }), /no input array/);
});

/** The encoded frames, each checked to name its event and to number it in order. */
function eventsOf(frames: string[]): ResponseStreamEvent[] {
  return frames.map((frame, index) => {
    const match = /^event: (\S+)\ndata: (.*)\n\n$/s.exec(frame);
    assert.ok(match, `frame ${index} is one named event`);
    const event = JSON.parse(match[2]!) as ResponseStreamEvent;
    assert.equal(event.type, match[1], `frame ${index} names its event`);
    assert.equal(event.sequence_number, index, `frame ${index} is numbered in order`);
    return event;
  });
}

test("an encoded turn is read by the client's own stream parser into the response it scripts", async () => {
  const { frames } = encodeTurn(
    {
      kind: 'text',
      text: 'Hello there.',
      chunks: 3,
      reasoning: { text: 'Greet back.', signature: 'sig', chunks: 2 },
      usage: { input: 10, cacheRead: 5, output: 4 },
    },
    'kit-model',
    'msg_kit_3',
  );
  // The client's SSE reader turns the frames into events, its Responses stream builds the response.
  const events = Stream.fromSSEResponse<ResponseStreamEvent>(new Response(frames.join('')), new AbortController());
  const response = await ResponseStream.fromReadableStream(events.toReadableStream()).finalResponse();
  const { created_at: _, ...rest } = JSON.parse(JSON.stringify(response)) as Record<string, unknown>;
  assert.equal(rest.status, 'completed');
  assert.equal(rest.id, 'resp_kit_3');
  assert.equal(rest.output_text, 'Hello there.');
  assert.deepEqual(rest.output, [
    {
      id: 'rs_kit_3',
      type: 'reasoning',
      summary: [{ type: 'summary_text', text: 'Greet back.' }],
      encrypted_content: 'sig',
    },
    {
      id: 'msg_kit_3',
      type: 'message',
      status: 'completed',
      role: 'assistant',
      // `parsed`: the client's own structured-output reading of the text, none here.
      content: [{ type: 'output_text', text: 'Hello there.', annotations: [], parsed: null }],
    },
  ]);
  assert.deepEqual(rest.usage, {
    input_tokens: 15,
    input_tokens_details: { cached_tokens: 5 },
    output_tokens: 4,
    output_tokens_details: { reasoning_tokens: 0 },
    total_tokens: 19,
  });
  assert.deepEqual(
    eventsOf(frames).map((event) => event.type),
    [
      'response.created',
      'response.in_progress',
      'response.output_item.added',
      'response.reasoning_summary_part.added',
      'response.reasoning_summary_text.delta',
      'response.reasoning_summary_text.delta',
      'response.reasoning_summary_text.done',
      'response.reasoning_summary_part.done',
      'response.output_item.done',
      'response.output_item.added',
      'response.content_part.added',
      'response.output_text.delta',
      'response.output_text.delta',
      'response.output_text.delta',
      'response.output_text.done',
      'response.content_part.done',
      'response.output_item.done',
      'response.completed',
    ],
  );
});

test('the arguments of each function call stream into its own output item', () => {
  const { frames } = encodeTurn(
    {
      kind: 'tool-calls',
      calls: [
        { id: 'call_1', name: 'echo', input: { text: 'one' }, inputChunks: 3 },
        { id: 'call_2', name: 'gate', input: {}, rawInput: '{"name":' },
      ],
      usage: null,
    },
    'kit-model',
  );
  const deltas = eventsOf(frames).flatMap((event) =>
    event.type === 'response.function_call_arguments.delta' ? [[event.output_index, event.item_id, event.delta]] : [],
  );
  assert.deepEqual(deltas, [
    [0, 'fc_kit_0', '{"tex'],
    [0, 'fc_kit_0', 't":"o'],
    [0, 'fc_kit_0', 'ne"}'],
    [1, 'fc_kit_1', '{"na'],
    [1, 'fc_kit_1', 'me":'],
  ]);
});

test('a tool the request offers as free-form is called with its text, a function with JSON', () => {
  const { frames } = encodeTurn(
    {
      kind: 'tool-calls',
      calls: [
        { id: 'call_1', name: 'apply_patch', input: { input: '*** Begin Patch' } },
        { id: 'call_2', name: 'echo', input: { text: 'one' } },
      ],
      usage: null,
    },
    'kit-model',
    'resp_kit',
    {
      path: '/v1/responses',
      body: {
        tools: [
          { type: 'custom', name: 'apply_patch' },
          { type: 'function', name: 'echo' },
        ],
      },
    },
  );
  const done = eventsOf(frames).flatMap((event) =>
    event.type === 'response.output_item.done'
      ? [event.item as { type: string; name?: string; input?: string; arguments?: string }]
      : [],
  );
  assert.deepEqual(
    done.map(({ type, name, input, arguments: args }) => [type, name, input ?? args]),
    [
      ['custom_tool_call', 'apply_patch', '*** Begin Patch'],
      ['function_call', 'echo', '{"text":"one"}'],
    ],
  );
});

test('a failure shows a Responses request as the model saw it', () => {
  const rendered = renderRequest({ index: 2, body: REQUEST, model: 'kit-model', ...decodeRequest(REQUEST) }, 3);
  assert.deepEqual(rendered, [
    'request 2 of 3 · tools: ls, web_search',
    '  baseline:',
    '    │ You are a coding agent.',
    '    │ Sandbox: read-only.',
    '  user       What is in this picture?',
    '             ▣ image/png',
    '  assistant  … Look at it, then list files.',
    '             A cat. Listing files.',
    '  assistant  → ls {"path":"."} [call_a]',
    '             → ls {"path":"src"} [call_b]',
    '  tool       [call_a] README.md',
    '  tool       [call_b] main.ts',
    '             ▣ image/png',
    '             ▣ application/pdf',
    '  system     The clock moved on.',
    '  user       Thanks.',
  ]);
});

test('a hosted web search streams as its call with the query, and a replayed call decodes as the provider tool call', async () => {
  const { frames } = encodeTurn(
    {
      kind: 'text',
      text: 'Found it.',
      chunks: 1,
      webSearch: { id: 'ws_kit', query: 'kit', results: 2, resultSize: 10 },
      usage: null,
    },
    'kit-model',
  );
  const events = Stream.fromSSEResponse<ResponseStreamEvent>(new Response(frames.join('')), new AbortController());
  const response = await ResponseStream.fromReadableStream(events.toReadableStream()).finalResponse();
  assert.deepEqual(response.output[0], {
    id: 'ws_kit',
    type: 'web_search_call',
    status: 'completed',
    action: { type: 'search', query: 'kit' },
  });
  assert.deepEqual(
    decodeRequest({ input: [{ role: 'user', content: 'Search.' }, response.output[0], response.output[1]] }).messages,
    [
      { role: 'user', text: 'Search.' },
      {
        role: 'assistant',
        text: '',
        providerToolCall: { id: 'ws_kit', name: 'web_search', input: '{"type":"search","query":"kit"}' },
      },
      { role: 'assistant', text: 'Found it.' },
    ],
  );
});

test('free-form and local shell calls decode as tool calls, their outputs as tool results; other items are left out', () => {
  const decoded = decodeRequest({
    input: [
      { role: 'user', content: 'Patch it.' },
      { type: 'custom_tool_call', call_id: 'call_p', name: 'apply_patch', input: '*** Begin Patch' },
      { type: 'local_shell_call', call_id: 'call_s', action: { type: 'exec', command: ['ls'] } },
      { type: 'custom_tool_call_output', call_id: 'call_p', output: 'Done.' },
      { type: 'local_shell_call_output', id: 'call_s', output: 'a.txt' },
      { type: 'item_reference', id: 'msg_1' },
    ],
  });
  assert.deepEqual(decoded.messages, [
    { role: 'user', text: 'Patch it.' },
    {
      role: 'assistant',
      text: '',
      toolCalls: [
        { id: 'call_p', name: 'apply_patch', input: '*** Begin Patch' },
        { id: 'call_s', name: 'local_shell', input: '{"type":"exec","command":["ls"]}' },
      ],
    },
    { role: 'tool', text: 'Done.', toolCallId: 'call_p' },
    { role: 'tool', text: 'a.txt', toolCallId: 'call_s' },
  ]);
});
