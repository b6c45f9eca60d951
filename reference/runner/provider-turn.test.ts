import { type TestContext, test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import { SessionRuntime } from '../runtime.js';
import type { Tool } from '../tools/tool.js';

/** An OpenAI chat stream of the given chunks, finished as the dialect finishes it. */
function chatStream(deltas: object[], finish: string): string {
  const frame = (delta: object, finishReason: string | null = null) =>
    `data: ${JSON.stringify({ choices: [{ index: 0, delta, finish_reason: finishReason }] })}\n\n`;
  return [...deltas.map((delta) => frame(delta)), frame({}, finish), 'data: [DONE]\n\n'].join('');
}

const call = (index: number, id: string, text: string) => ({
  tool_calls: [{ index, id, type: 'function', function: { name: 'echo', arguments: JSON.stringify({ text }) } }],
});

// The repetition is noticed when the stream moves past the repeated call: at the next call, or at its end.
for (const [where, calls] of [
  ['as its last call', [call(0, 'call_1', 'first'), call(1, 'call_1', 'second')]],
  ['before another call', [call(0, 'call_1', 'first'), call(1, 'call_1', 'second'), call(2, 'call_2', 'third')]],
] as const) {
  test(
    `a response repeating a tool call ID ${where} fails its turn visibly; the session answers the next prompt`,
    {
      timeout: 60_000,
    },
    (t) => repeatedCallId(t, calls),
  );
}

async function repeatedCallId(t: TestContext, calls: readonly object[]): Promise<void> {
  const answers = [chatStream([...calls], 'tool_calls'), chatStream([{ content: 'done' }], 'stop')];
  const requests: { messages: { role: string; tool_call_id?: string; tool_calls?: { id: string }[] }[] }[] = [];
  const server = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => {
      body += chunk.toString();
    });
    request.on('end', () => {
      requests.push(JSON.parse(body));
      response.writeHead(200, { 'content-type': 'text/event-stream' });
      response.end(answers.shift() ?? chatStream([{ content: 'unexpected' }], 'stop'));
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const echoed: unknown[] = [];
  const echo: Tool = {
    name: 'echo',
    description: 'Echoes its text.',
    parameters: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] },
    execute: async (input) => {
      echoed.push(input.text);
      return String(input.text);
    },
  };
  const dir = mkdtempSync(join(tmpdir(), 'reference-repeated-call-id-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const runtime = new SessionRuntime({
    databaseFile: join(dir, 'sessions.db'),
    provider: {
      dialect: 'openai-chat',
      baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
      apiKey: 'k',
      model: 'm',
    },
    tools: [echo],
    globalConfigDir: join(dir, 'config'),
    hostEnv: () => ({}),
    diagnostics: (message) => assert.fail(`unexpected diagnostic: ${message}`),
  });
  try {
    const { session } = runtime.createSession({ location: dir });
    runtime.prompt({ sessionId: session.id, prompt: { parts: [{ type: 'text', text: 'go' }] } });
    await runtime.idle(session.id);

    assert.equal(requests.length, 1);
    const failures = runtime
      .events(session.id)
      .flatMap(({ event }) => (event.type === 'session.failed' ? [event] : []));
    assert.deepEqual(
      failures.map(({ code }) => code),
      ['provider-error'],
    );
    assert.match(failures[0]!.message, /call_1/);
    // The call recorded before the repetition ran and settled; nothing after it ran.
    assert.deepEqual(echoed, ['first']);
    const afterFailure = runtime.messages(session.id);
    assert.deepEqual(
      afterFailure.map((message) => [message.role, 'status' in message ? message.status : undefined]),
      [
        ['user', undefined],
        ['assistant', 'failed'],
        ['tool', 'success'],
      ],
    );

    runtime.prompt({ sessionId: session.id, prompt: { parts: [{ type: 'text', text: 'again' }] } });
    await runtime.idle(session.id);

    assert.equal(requests.length, 2);
    const sent = requests[1]!.messages.filter((message) => message.role !== 'system');
    assert.deepEqual(
      sent.map((message) => [message.role, message.tool_calls?.map(({ id }) => id), message.tool_call_id]),
      [
        ['user', undefined, undefined],
        ['assistant', ['call_1'], undefined],
        ['tool', undefined, 'call_1'],
        ['user', undefined, undefined],
      ],
    );
    const last = runtime.messages(session.id).at(-1);
    assert.equal(last?.role === 'assistant' && `${last.status}: ${last.text}`, 'completed: done');
  } finally {
    runtime.terminate();
    server.close();
  }
}
