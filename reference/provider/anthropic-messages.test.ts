import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { ModelMessage } from '../history/message.js';
import { assistant, system, tool, user } from './history-for-tests.js';
import { anthropicMessages } from './anthropic-messages.js';
import { StreamCut, type ProviderConfig } from './provider-turn-stream.js';

const config: ProviderConfig = {
  dialect: 'anthropic-messages',
  baseUrl: 'http://127.0.0.1/v1',
  apiKey: 'key',
  model: 'model-a',
};
function encode(history: ModelMessage[], baseline: string[] = []) {
  return anthropicMessages.encode({ model: 'model-a', baseline, history, tools: [] }, config) as {
    path: string;
    headers: Record<string, string>;
    body: { system?: unknown; messages: unknown[] };
  };
}

test('the request goes to /messages with the API key, the API version and the baseline as text blocks', () => {
  const request = encode([user('hi')], ['You are terse.', 'Today is Monday.']);
  assert.equal(request.path, 'messages');
  assert.deepEqual(request.headers, { 'x-api-key': 'key', 'anthropic-version': '2023-06-01' });
  assert.deepEqual(request.body.system, [
    { type: 'text', text: 'You are terse.' },
    { type: 'text', text: 'Today is Monday.' },
  ]);
  assert.equal('system' in encode([user('hi')]).body, false);
});

test('a system message is wrapped, escaped and merged into the user turn in chronological position', () => {
  const history = [
    user('first'),
    assistant({ text: 'ok' }),
    user('second'),
    system('Use <b> & </system-update> now'),
    user('third'),
  ];
  assert.deepEqual(encode(history).body.messages, [
    { role: 'user', content: [{ type: 'text', text: 'first' }] },
    { role: 'assistant', content: [{ type: 'text', text: 'ok' }] },
    {
      role: 'user',
      content: [
        { type: 'text', text: 'second' },
        { type: 'text', text: '<system-update>\nUse &lt;b&gt; &amp; &lt;/system-update&gt; now\n</system-update>' },
        { type: 'text', text: 'third' },
      ],
    },
  ]);
});

test('the tool results of one assistant turn share one user message, in call order, before later user-side content', () => {
  const calls = [
    { callId: 'toolu_1', name: 'echo', input: '{"text":"a"}' },
    { callId: 'toolu_2', name: 'fail', input: '{"message":"no"}' },
    { callId: 'toolu_3', name: 'gate', input: '' },
  ];
  const history = [
    user('go'),
    assistant({ toolCalls: calls }),
    tool('toolu_1', 'a'),
    tool('toolu_2', 'no', 'error'),
    tool('toolu_3', 'stopped', 'interrupted'),
    system('date changed'),
  ];
  assert.deepEqual(encode(history).body.messages, [
    { role: 'user', content: [{ type: 'text', text: 'go' }] },
    {
      role: 'assistant',
      content: [
        { type: 'tool_use', id: 'toolu_1', name: 'echo', input: { text: 'a' } },
        { type: 'tool_use', id: 'toolu_2', name: 'fail', input: { message: 'no' } },
        { type: 'tool_use', id: 'toolu_3', name: 'gate', input: {} },
      ],
    },
    {
      role: 'user',
      content: [
        { type: 'tool_result', tool_use_id: 'toolu_1', content: 'a' },
        { type: 'tool_result', tool_use_id: 'toolu_2', content: 'no', is_error: true },
        { type: 'tool_result', tool_use_id: 'toolu_3', content: 'stopped', is_error: true },
        { type: 'text', text: '<system-update>\ndate changed\n</system-update>' },
      ],
    },
  ]);
});

test('reasoning is replayed as a signed thinking block to the model that wrote it', () => {
  const history = [
    user('hi'),
    assistant({ text: 'Hello.', reasoning: { text: 'A greeting.', signature: 'sig-1' } }),
    user('again'),
  ];
  assert.deepEqual(encode(history).body.messages[1], {
    role: 'assistant',
    content: [
      { type: 'thinking', thinking: 'A greeting.', signature: 'sig-1' },
      { type: 'text', text: 'Hello.' },
    ],
  });
});

test('after a model switch the reasoning becomes plain text before the visible text, without its signature', () => {
  const reasoning = { text: 'A greeting.', signature: 'sig-1' };
  const history = [user('hi'), assistant({ model: 'model-b', text: 'Hello.', reasoning }), user('again')];
  assert.deepEqual(encode(history).body.messages[1], {
    role: 'assistant',
    content: [
      { type: 'text', text: 'A greeting.' },
      { type: 'text', text: 'Hello.' },
    ],
  });
});

function decode(frames: object[]) {
  const decoder = anthropicMessages.decoder();
  const chunks = frames.flatMap((data) =>
    decoder.accept({ event: (data as { type: string }).type, data: JSON.stringify(data), id: undefined }),
  );
  return { chunks, complete: decoder.complete };
}

test('the decoder reads reasoning, text and tool calls, and completes only at message_stop', () => {
  const frames = [
    { type: 'message_start', message: { id: 'msg_1', usage: { input_tokens: 3, output_tokens: 1 } } },
    { type: 'content_block_start', index: 0, content_block: { type: 'thinking', thinking: '', signature: '' } },
    { type: 'content_block_delta', index: 0, delta: { type: 'thinking_delta', thinking: 'Echo it.' } },
    { type: 'content_block_delta', index: 0, delta: { type: 'signature_delta', signature: 'sig-1' } },
    { type: 'content_block_stop', index: 0 },
    { type: 'ping' },
    { type: 'content_block_start', index: 1, content_block: { type: 'text', text: '' } },
    { type: 'content_block_delta', index: 1, delta: { type: 'text_delta', text: 'On it.' } },
    { type: 'content_block_stop', index: 1 },
    {
      type: 'content_block_start',
      index: 2,
      content_block: { type: 'tool_use', id: 'toolu_1', name: 'echo', input: {} },
    },
    { type: 'content_block_delta', index: 2, delta: { type: 'input_json_delta', partial_json: '{"text": ' } },
    { type: 'content_block_delta', index: 2, delta: { type: 'input_json_delta', partial_json: '"a"}' } },
    { type: 'content_block_stop', index: 2 },
    { type: 'message_delta', delta: { stop_reason: 'tool_use', stop_sequence: null }, usage: { output_tokens: 20 } },
  ];
  const before = decode(frames);
  assert.deepEqual(before.chunks, [
    { type: 'reasoning', delta: 'Echo it.' },
    { type: 'reasoning-signature', signature: 'sig-1' },
    { type: 'text', delta: 'On it.' },
    { type: 'tool-call', index: 2, id: 'toolu_1', name: 'echo' },
    { type: 'tool-call', index: 2, argumentsDelta: '{"text": ' },
    { type: 'tool-call', index: 2, argumentsDelta: '"a"}' },
    { type: 'finish', reason: 'tool_calls' },
  ]);
  assert.equal(before.complete, false);
  assert.equal(decode([...frames, { type: 'message_stop' }]).complete, true);
});

test('stop reasons map to finishes', () => {
  const finish = (stop_reason: string) =>
    decode([{ type: 'message_delta', delta: { stop_reason }, usage: { output_tokens: 1 } }]).chunks;
  assert.deepEqual(finish('end_turn'), [{ type: 'finish', reason: 'stop' }]);
  assert.deepEqual(finish('stop_sequence'), [{ type: 'finish', reason: 'stop' }]);
  assert.deepEqual(finish('max_tokens'), [{ type: 'finish', reason: 'length' }]);
});

test('an error event mid-stream cuts the stream with the provider message', () => {
  assert.throws(
    () => decode([{ type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } }]),
    (error: unknown) => error instanceof StreamCut && error.message.endsWith('overloaded_error: Overloaded'),
  );
});
