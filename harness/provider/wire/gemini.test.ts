import { test } from 'node:test';
import assert from 'node:assert/strict';
import { decodeRequest, encodeTurn } from './gemini.js';
import { dialects, routeOf } from './dialect.js';

const STREAM = { path: '/v1beta/models/kit-model:streamGenerateContent', body: {} };
const UNARY = { path: '/v1beta/models/kit-model:generateContent', body: {} };

/** Each SSE frame's response. */
function responsesOf(
  frames: string[],
): { candidates: { content: { parts: object[] }; finishReason?: string }[]; usageMetadata?: object }[] {
  return frames.map((frame) => {
    assert.match(frame, /^data: .*\n\n$/s);
    return JSON.parse(frame.slice('data: '.length));
  });
}

test('a request path names its model; a path of another dialect or with a deeper model is none of its own', () => {
  const gemini = dialects.gemini!;
  assert.deepEqual(routeOf(gemini, '/v1beta/models/kit-model:streamGenerateContent'), { model: 'kit-model' });
  assert.deepEqual(routeOf(gemini, '/v1beta/models/kit-model:generateContent'), { model: 'kit-model' });
  assert.equal(routeOf(gemini, '/v1beta/models/a/b:generateContent'), undefined);
  assert.equal(routeOf(gemini, '/v1beta/models/kit-model:countTokens'), undefined);
  assert.deepEqual(routeOf(dialects['openai-chat']!, '/v1/chat/completions'), {});
});

test('a streamed text turn sends its thoughts, then its text signed after them, and finishes with its usage', () => {
  const { status, headers, frames } = encodeTurn(
    {
      kind: 'text',
      text: 'Hello there.',
      chunks: 2,
      reasoning: { text: 'Greet them back.', signature: 'c2ln', chunks: 2 },
      usage: { input: 10, cacheRead: 5, output: 9 },
    },
    'kit-model',
    'msg_kit_1',
    STREAM,
  );
  assert.equal(status, 200);
  assert.equal(headers['content-type'], 'text/event-stream');
  const responses = responsesOf(frames);
  assert.deepEqual(
    responses.map((response) => response.candidates[0]!.content.parts),
    [
      [{ text: 'Greet th', thought: true }],
      [{ text: 'em back.', thought: true }],
      [{ text: 'Hello ', thoughtSignature: 'c2ln' }],
      [{ text: 'there.' }],
    ],
  );
  assert.deepEqual(
    responses.map((response) => response.candidates[0]!.finishReason ?? null),
    [null, null, null, 'STOP'],
  );
  // Four thought tokens of the nine output tokens; the prompt's count includes the cached ones.
  assert.deepEqual(responses.at(-1)!.usageMetadata, {
    promptTokenCount: 15,
    candidatesTokenCount: 5,
    totalTokenCount: 24,
    cachedContentTokenCount: 5,
    thoughtsTokenCount: 4,
  });
  assert.equal(
    responses.slice(0, -1).some((response) => 'usageMetadata' in response),
    false,
  );
});

test('each function call streams whole, with its ID and its input as an object, and the turn finishes STOP', () => {
  const { frames } = encodeTurn(
    {
      kind: 'tool-calls',
      calls: [
        { id: 'call_1', name: 'echo', input: { text: 'one' }, inputChunks: 3 },
        { id: 'call_2', name: 'gate', input: {}, rawInput: '{"name": "g1"}' },
      ],
      usage: null,
    },
    'kit-model',
    'msg_kit_2',
    STREAM,
  );
  const responses = responsesOf(frames);
  assert.deepEqual(
    responses.map((response) => response.candidates[0]!.content.parts),
    [
      [{ functionCall: { id: 'call_1', name: 'echo', args: { text: 'one' } } }],
      [{ functionCall: { id: 'call_2', name: 'gate', args: { name: 'g1' } } }],
    ],
  );
  assert.equal(responses[1]!.candidates[0]!.finishReason, 'STOP');
  assert.deepEqual(responses[1]!.usageMetadata, { promptTokenCount: 0, candidatesTokenCount: 0, totalTokenCount: 0 });
});

test('input text that decodes to no object cannot be a call of this dialect', () => {
  for (const rawInput of ['{"text": "cut', '[1]', '5']) {
    assert.throws(
      () => encodeTurn({ kind: 'tool-calls', calls: [{ id: 'c', name: 'echo', input: {}, rawInput }] }, 'kit-model'),
      /the Gemini API cannot call echo with the input text/,
    );
  }
});

test('a unary request gets one JSON response: the parts of the stream, adjacent text joined', () => {
  const { headers, frames } = encodeTurn(
    {
      kind: 'text',
      text: 'Hello there.',
      chunks: 3,
      reasoning: { text: 'Greet them back.', signature: 'c2ln', chunks: 2 },
      usage: { input: 3, cacheRead: 0, output: 2 },
    },
    'kit-model',
    'msg_kit_3',
    UNARY,
  );
  assert.equal(headers['content-type'], 'application/json');
  assert.equal(frames.length, 1);
  const response = JSON.parse(frames[0]!);
  assert.deepEqual(response.candidates, [
    {
      content: {
        role: 'model',
        parts: [
          { text: 'Greet them back.', thought: true },
          { text: 'Hello there.', thoughtSignature: 'c2ln' },
        ],
      },
      index: 0,
      finishReason: 'STOP',
    },
  ]);
  assert.deepEqual(response.usageMetadata, {
    promptTokenCount: 3,
    candidatesTokenCount: 0,
    totalTokenCount: 5,
    thoughtsTokenCount: 2,
  });
});

test('an error turn is its status and body as scripted', () => {
  const body = JSON.stringify({ error: { code: 503, message: 'overloaded', status: 'UNAVAILABLE' } });
  assert.deepEqual(encodeTurn({ kind: 'error', status: 503, body }, 'kit-model', 'msg', STREAM), {
    status: 503,
    headers: { 'content-type': 'application/json' },
    frames: [body],
  });
});

const REQUEST = {
  systemInstruction: { role: 'user', parts: [{ text: 'Be brief.' }, { text: 'Today is Monday.' }] },
  contents: [
    { role: 'user', parts: [{ text: 'Echo hi.' }, { inlineData: { mimeType: 'image/png', data: 'iVBORw0KGgo=' } }] },
    {
      role: 'model',
      parts: [
        { text: 'Echo it.', thought: true },
        { functionCall: { id: 'call_1', name: 'echo', args: { text: 'hi' } }, thoughtSignature: 'c2ln' },
        { functionCall: { id: 'call_2', name: 'echo', args: {} } },
      ],
    },
    {
      role: 'user',
      parts: [
        { functionResponse: { id: 'call_1', name: 'echo', response: { output: 'hi' } } },
        {
          functionResponse: {
            id: 'call_2',
            name: 'echo',
            response: { error: 'no text' },
            parts: [{ inlineData: { mimeType: 'application/pdf', data: 'JVBERi0=' } }],
          },
        },
        { inlineData: { mimeType: 'image/jpeg', data: '/9j/' } },
        { text: '<system-update>\nnow\n</system-update>' },
      ],
    },
    { role: 'model', parts: [{ text: 'Done.' }] },
    { role: 'user', parts: [{ text: 'Say hello.' }] },
  ],
  tools: [{ functionDeclarations: [{ name: 'echo' }, { name: 'gate' }] }, { functionDeclarations: [{ name: 'read' }] }],
  generationConfig: { maxOutputTokens: 100 },
};

test('a request decodes to the neutral conversation: system instruction, parts in order, calls together, thoughts with their message', () => {
  assert.deepEqual(decodeRequest(REQUEST), {
    baseline: ['Be brief.', 'Today is Monday.'],
    messages: [
      { role: 'user', text: 'Echo hi.' },
      { role: 'user', text: '', media: 1, mediaTypes: ['image/png'] },
      {
        role: 'assistant',
        text: '',
        toolCalls: [
          { id: 'call_1', name: 'echo', input: '{"text":"hi"}' },
          { id: 'call_2', name: 'echo', input: '{}' },
        ],
        reasoning: { text: 'Echo it.', signature: 'c2ln' },
      },
      { role: 'tool', text: 'hi', toolCallId: 'call_1' },
      { role: 'tool', text: 'no text', toolCallId: 'call_2', media: 1, mediaTypes: ['application/pdf'] },
      { role: 'user', text: '', media: 1, mediaTypes: ['image/jpeg'] },
      { role: 'user', text: '<system-update>\nnow\n</system-update>' },
      { role: 'assistant', text: 'Done.' },
      { role: 'user', text: 'Say hello.' },
    ],
    tools: ['echo', 'gate', 'read'],
  });
});

test('a function response under the model role, or a call under the user role, stands for nothing', () => {
  const decoded = decodeRequest({
    contents: [
      { role: 'user', parts: [{ text: 'go' }, { functionCall: { id: 'c', name: 'echo', args: {} } }] },
      { role: 'model', parts: [{ functionResponse: { id: 'c', name: 'echo', response: { output: 'x' } } }] },
    ],
  });
  assert.deepEqual(decoded.messages, [{ role: 'user', text: 'go' }]);
});

test('a result that is not text under output or error reads as its JSON; a signature without thoughts is still reasoning', () => {
  const decoded = decodeRequest({
    contents: [
      { role: 'user', parts: [{ functionResponse: { id: 'c', name: 'read', response: { lines: 2 } } }] },
      { role: 'model', parts: [{ text: 'ok', thoughtSignature: 'c2ln' }] },
    ],
  });
  assert.deepEqual(decoded.messages, [
    { role: 'tool', text: '{"lines":2}', toolCallId: 'c' },
    { role: 'assistant', text: 'ok', reasoning: { text: '', signature: 'c2ln' } },
  ]);
});

test('a request without contents cannot be read', () => {
  assert.throws(() => decodeRequest({ systemInstruction: { parts: [] } }), /no contents array/);
});
