import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { ModelMessage } from '../history/message.js';
import { assistant, system, tool, user } from './history-for-tests.js';
import { gemini } from './gemini.js';
import { StreamCut, type ProviderConfig } from './provider-turn-stream.js';

const config: ProviderConfig = { dialect: 'gemini', baseUrl: 'http://127.0.0.1:9/v1', apiKey: 'key', model: 'model-a' };
const echo = { name: 'echo', description: 'Echoes.', parameters: { type: 'object', properties: {} } };

function encode(history: ModelMessage[], baseline: string[] = []) {
  return gemini.encode({ model: 'model-a', baseline, history, tools: [echo], maxOutputTokens: 50 }, config) as {
    path: string;
    headers: Record<string, string>;
    body: { systemInstruction?: unknown; contents: unknown[]; tools?: unknown; generationConfig: unknown };
  };
}

test('the request streams from the API version beside the base URL, with the key, the baseline as system instruction and the tools as declarations', () => {
  const request = encode([user('hi')], ['You are terse.', 'Today is Monday.']);
  assert.equal(
    new URL(request.path, `${config.baseUrl}/`).href,
    'http://127.0.0.1:9/v1beta/models/model-a:streamGenerateContent?alt=sse',
  );
  assert.deepEqual(request.headers, { 'x-goog-api-key': 'key' });
  assert.deepEqual(request.body.systemInstruction, {
    parts: [{ text: 'You are terse.' }, { text: 'Today is Monday.' }],
  });
  assert.deepEqual(request.body.tools, [
    { functionDeclarations: [{ name: 'echo', description: 'Echoes.', parametersJsonSchema: echo.parameters }] },
  ]);
  assert.deepEqual(request.body.generationConfig, { maxOutputTokens: 50, thinkingConfig: { includeThoughts: true } });
  assert.equal('systemInstruction' in encode([user('hi')]).body, false);
});

test('calls go back under the model, their results as function responses under the user, wrapped system text after them', () => {
  const calls = [
    { callId: 'call_1', name: 'echo', input: '{"text":"a"}' },
    { callId: 'call_2', name: 'echo', input: '' },
  ];
  const history = [
    user('go'),
    assistant({ text: 'On it.', toolCalls: calls }),
    tool('call_1', 'a'),
    tool('call_2', 'stopped', 'interrupted'),
    system('Use <b> now'),
    user('more'),
  ];
  assert.deepEqual(encode(history).body.contents, [
    { role: 'user', parts: [{ text: 'go' }] },
    {
      role: 'model',
      parts: [
        { text: 'On it.' },
        { functionCall: { id: 'call_1', name: 'echo', args: { text: 'a' } } },
        { functionCall: { id: 'call_2', name: 'echo', args: {} } },
      ],
    },
    {
      role: 'user',
      parts: [
        { functionResponse: { id: 'call_1', name: 'echo', response: { output: 'a' } } },
        { functionResponse: { id: 'call_2', name: 'echo', response: { error: 'stopped' } } },
        { text: '<system-update>\nUse &lt;b&gt; now\n</system-update>' },
        { text: 'more' },
      ],
    },
  ]);
});

test('thoughts go back as thoughts to the model that wrote them, signed on the part after them', () => {
  const reasoning = { text: 'A greeting.', signature: 'c2ln' };
  const contentsOf = (fields: Parameters<typeof assistant>[0]) =>
    encode([user('hi'), assistant({ reasoning, ...fields })]).body.contents[1];
  assert.deepEqual(contentsOf({ text: 'Hello.' }), {
    role: 'model',
    parts: [
      { text: 'A greeting.', thought: true },
      { text: 'Hello.', thoughtSignature: 'c2ln' },
    ],
  });
  assert.deepEqual(contentsOf({}), {
    role: 'model',
    parts: [{ text: 'A greeting.', thought: true, thoughtSignature: 'c2ln' }],
  });
  // After a model switch: plain text, no signature.
  assert.deepEqual(contentsOf({ model: 'model-b', text: 'Hello.' }), {
    role: 'model',
    parts: [{ text: 'A greeting.' }, { text: 'Hello.' }],
  });
});

function decode(frames: object[]) {
  const decoder = gemini.decoder();
  const chunks = frames.flatMap((data) =>
    decoder.accept({ event: undefined, data: JSON.stringify(data), id: undefined }),
  );
  return { chunks, complete: decoder.complete };
}

const response = (parts: object[], extra: object = {}) => ({
  candidates: [{ content: { role: 'model', parts }, index: 0, ...extra }],
});

test('the decoder reads thoughts, their signature, text and whole calls, and completes at the finish reason', () => {
  const frames = [
    response([{ text: 'Echo it.', thought: true }]),
    response([{ text: 'On it.', thoughtSignature: 'c2ln' }]),
    response([{ functionCall: { id: 'call_1', name: 'echo', args: { text: 'a' } } }]),
  ];
  const last = response([{ functionCall: { id: 'call_2', name: 'echo', args: {} } }], { finishReason: 'STOP' });
  const before = decode(frames);
  assert.deepEqual(before.chunks, [
    { type: 'reasoning', delta: 'Echo it.' },
    { type: 'text', delta: 'On it.' },
    { type: 'reasoning-signature', signature: 'c2ln' },
    { type: 'tool-call', index: 0, id: 'call_1', name: 'echo', argumentsDelta: '{"text":"a"}' },
  ]);
  assert.equal(before.complete, false);
  const after = decode([...frames, last]);
  assert.deepEqual(after.chunks.slice(-2), [
    { type: 'tool-call', index: 1, id: 'call_2', name: 'echo', argumentsDelta: '{}' },
    { type: 'finish', reason: 'tool_calls' },
  ]);
  assert.equal(after.complete, true);
});

test('a call the API does not name gets an ID of its own', () => {
  const [chunk] = decode([response([{ functionCall: { name: 'echo', args: {} } }])]).chunks;
  assert.match((chunk as { id: string }).id, /^call_[0-9a-f-]{36}$/);
});

test('usage: the prompt count less the cached tokens is fresh input, the output counts the thoughts', () => {
  const usageMetadata = {
    promptTokenCount: 100,
    cachedContentTokenCount: 60,
    candidatesTokenCount: 7,
    thoughtsTokenCount: 30,
    totalTokenCount: 137,
  };
  assert.deepEqual(decode([{ ...response([{ text: 'x' }], { finishReason: 'STOP' }), usageMetadata }]).chunks, [
    { type: 'text', delta: 'x' },
    { type: 'usage', usage: { input: 40, cacheRead: 60, output: 37 } },
    { type: 'finish', reason: 'stop' },
  ]);
});

test('finish reasons map to finishes', () => {
  const finish = (finishReason: string) => decode([response([], { finishReason })]).chunks;
  assert.deepEqual(finish('STOP'), [{ type: 'finish', reason: 'stop' }]);
  assert.deepEqual(finish('MAX_TOKENS'), [{ type: 'finish', reason: 'length' }]);
  assert.deepEqual(finish('SAFETY'), [{ type: 'finish', reason: 'stop' }]);
});

test('an error frame mid-stream cuts the stream with the provider message', () => {
  assert.throws(
    () => decode([{ error: { code: 503, message: 'The model is overloaded.', status: 'UNAVAILABLE' } }]),
    (error: unknown) => error instanceof StreamCut && error.message.endsWith('UNAVAILABLE: The model is overloaded.'),
  );
});

test('a refusal asks for the wait its RetryInfo gives; a too-long input is a context overflow', () => {
  const refusal = (details: object[]) =>
    JSON.stringify({ error: { code: 429, message: 'quota', status: 'RESOURCE_EXHAUSTED', details } });
  const retryInfo = { '@type': 'type.googleapis.com/google.rpc.RetryInfo', retryDelay: '3s' };
  assert.equal(
    gemini.retryAfter?.(refusal([{ '@type': 'type.googleapis.com/google.rpc.QuotaFailure' }, retryInfo])),
    '3',
  );
  assert.equal(gemini.retryAfter?.(refusal([])), null);
  assert.equal(gemini.retryAfter?.('not json'), null);
  const overflow = JSON.stringify({
    error: {
      code: 400,
      message: 'The input token count (1063914) exceeds the maximum number of tokens allowed (1048576).',
      status: 'INVALID_ARGUMENT',
    },
  });
  assert.equal(gemini.isContextOverflow(400, overflow), true);
  assert.equal(gemini.isContextOverflow(429, refusal([retryInfo])), false);
});
