import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { ModelMessage } from '../history/message.js';
import { assistant, system, tool, user } from './history-for-tests.js';
import { openaiResponses } from './openai-responses.js';
import { ProviderRejected, StreamCut, type ProviderConfig } from './provider-turn-stream.js';

const config: ProviderConfig = {
  dialect: 'openai-responses',
  baseUrl: 'http://127.0.0.1/v1',
  apiKey: 'key',
  model: 'model-a',
};

function encode(history: ModelMessage[], baseline: string[] = []) {
  return openaiResponses.encode(
    {
      model: 'model-a',
      baseline,
      history,
      tools: [{ name: 'echo', description: 'Echoes.', parameters: { type: 'object' } }],
      maxOutputTokens: 100,
    },
    config,
  ) as { path: string; headers: Record<string, string>; body: Record<string, unknown> };
}

test('the request goes to /responses: the first baseline part as instructions, the history as input items', () => {
  const request = encode(
    [
      user('hi'),
      assistant({
        text: 'Echoing.',
        reasoning: { text: 'Echo it.', signature: 'enc-1' },
        toolCalls: [{ callId: 'call_1', name: 'echo', input: '{"text":"hi"}' }],
      }),
      tool('call_1', 'hi'),
      system('The file changed.'),
      assistant({ model: 'model-b', text: 'Done.', reasoning: { text: 'Other model.', signature: 'enc-b' } }),
    ],
    ['You are terse.', 'Today is Monday.'],
  );
  assert.equal(request.path, 'responses');
  assert.deepEqual(request.headers, { authorization: 'Bearer key' });
  assert.deepEqual(request.body, {
    model: 'model-a',
    stream: true,
    store: false,
    include: ['reasoning.encrypted_content'],
    max_output_tokens: 100,
    instructions: 'You are terse.',
    input: [
      { type: 'message', role: 'system', content: [{ type: 'input_text', text: 'Today is Monday.' }] },
      { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'hi' }] },
      { type: 'reasoning', summary: [{ type: 'summary_text', text: 'Echo it.' }], encrypted_content: 'enc-1' },
      { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'Echoing.' }] },
      { type: 'function_call', call_id: 'call_1', name: 'echo', arguments: '{"text":"hi"}' },
      { type: 'function_call_output', call_id: 'call_1', output: 'hi' },
      { type: 'message', role: 'system', content: [{ type: 'input_text', text: 'The file changed.' }] },
      // AGT-06: another model's reasoning is plain text, never its encrypted content.
      { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'Other model.' }] },
      { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'Done.' }] },
    ],
    tools: [{ type: 'function', name: 'echo', description: 'Echoes.', parameters: { type: 'object' }, strict: false }],
  });
});

function decode(...events: object[]) {
  const decoder = openaiResponses.decoder();
  const chunks = events.flatMap((event) =>
    decoder.accept({ event: undefined, id: undefined, data: JSON.stringify(event) }),
  );
  return { chunks, complete: decoder.complete };
}

const completed = (output: object[], usage: object | null = null) => ({
  type: 'response.completed',
  response: { status: 'completed', output, usage },
});

test('text, reasoning and function calls stream as chunks; the completed response brings usage and finish', () => {
  const { chunks, complete } = decode(
    { type: 'response.created', response: { status: 'in_progress', output: [] } },
    { type: 'response.output_item.added', output_index: 0, item: { type: 'reasoning', summary: [] } },
    { type: 'response.reasoning_summary_text.delta', output_index: 0, delta: 'Think.' },
    { type: 'response.output_item.done', output_index: 0, item: { type: 'reasoning', encrypted_content: 'enc' } },
    { type: 'response.output_item.added', output_index: 1, item: { type: 'message', content: [] } },
    { type: 'response.output_text.delta', output_index: 1, delta: 'Hi' },
    {
      type: 'response.output_item.added',
      output_index: 2,
      item: { type: 'function_call', call_id: 'call_1', name: 'echo', arguments: '' },
    },
    { type: 'response.function_call_arguments.delta', output_index: 2, delta: '{"a"' },
    { type: 'response.function_call_arguments.delta', output_index: 2, delta: ':1}' },
    completed([{ type: 'reasoning' }, { type: 'message' }, { type: 'function_call' }], {
      input_tokens: 30,
      input_tokens_details: { cached_tokens: 10 },
      output_tokens: 5,
    }),
  );
  assert.equal(complete, true);
  assert.deepEqual(chunks, [
    { type: 'reasoning', delta: 'Think.' },
    { type: 'reasoning-signature', signature: 'enc' },
    { type: 'text', delta: 'Hi' },
    { type: 'tool-call', index: 2, id: 'call_1', name: 'echo' },
    { type: 'tool-call', index: 2, argumentsDelta: '{"a"' },
    { type: 'tool-call', index: 2, argumentsDelta: ':1}' },
    { type: 'usage', usage: { input: 20, cacheRead: 10, output: 5 } },
    { type: 'finish', reason: 'tool_calls' },
  ]);
});

test('a stream that has not completed is not complete', () => {
  assert.equal(decode({ type: 'response.output_text.delta', output_index: 0, delta: 'The' }).complete, false);
});

test('an incomplete response finishes at its length limit', () => {
  const { chunks, complete } = decode({
    type: 'response.incomplete',
    response: { status: 'incomplete', output: [], incomplete_details: { reason: 'max_output_tokens' }, usage: null },
  });
  assert.equal(complete, true);
  assert.deepEqual(chunks, [{ type: 'finish', reason: 'length' }]);
});

test('a failed response cuts the stream, naming the error, unless it reports a context overflow', () => {
  const failed = (code: string) => ({
    type: 'response.failed',
    response: { status: 'failed', output: [], error: { code, message: `it was ${code}` } },
  });
  assert.throws(
    () => decode(failed('server_error')),
    (error: unknown) => {
      assert.ok(error instanceof StreamCut);
      assert.match(error.message, /server_error: it was server_error/);
      return true;
    },
  );
  assert.throws(
    () => decode(failed('context_length_exceeded')),
    (error: unknown) => {
      assert.ok(error instanceof ProviderRejected);
      assert.equal(openaiResponses.isContextOverflow(error.status, error.body), true);
      return true;
    },
  );
  assert.throws(() => decode({ type: 'error', code: 'rate_limit_exceeded', message: 'slow down' }), StreamCut);
});

test('a refusal is a context overflow when its code says so', () => {
  const body = JSON.stringify({ error: { type: 'invalid_request_error', code: 'context_length_exceeded' } });
  assert.equal(openaiResponses.isContextOverflow(400, body), true);
  assert.equal(openaiResponses.isContextOverflow(429, body), false);
  assert.equal(openaiResponses.isContextOverflow(400, '{"error":{"code":"invalid_value"}}'), false);
});
