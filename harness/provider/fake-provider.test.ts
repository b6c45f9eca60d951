import { test } from 'node:test';
import assert from 'node:assert/strict';
import { FakeProvider } from './fake-provider.js';
import { dialects } from './wire/dialect.js';

/** A chat request with one user message, as a runtime streams it. */
const postChat = (provider: FakeProvider, content: string) =>
  provider.handle(
    new Request('http://127.0.0.1/v1/chat/completions', {
      method: 'POST',
      body: JSON.stringify({ model: 'kit-model', stream: true, messages: [{ role: 'user', content }] }),
    }),
  );

test('a request the provider cannot read is answered with 400 and reported, not thrown', async () => {
  const provider = new FakeProvider(dialects['openai-chat']!, 'recordings', 'kit-model');
  provider.enqueue({ turn: { kind: 'text', text: 'hi', chunks: 1 } });
  const response = await provider.handle(
    new Request('http://127.0.0.1/v1/chat/completions', { method: 'POST', body: '{"model": "m", "messages": [' }),
  );
  assert.equal(response.status, 400);
  assert.match(provider.unreadable[0]!, /^request 1 \(.*JSON.*\)$/);
  assert.deepEqual(provider.requests, []);
  assert.equal(provider.unconsumed, 1, 'the scripted turn stays for the next request');
});

test('a reply scripted for a user text answers that text with lines appended to the turn, not a longer word', async () => {
  const provider = new FakeProvider(dialects['openai-chat']!, 'recordings', 'kit-model');
  provider.enqueue({ turn: { kind: 'text', text: 'second', chunks: 1 }, forUserText: 'two' });
  const ask = (content: string) => postChat(provider, content);
  assert.equal((await ask('twofold')).status, 500);
  assert.equal((await ask('two\n<system-update>\nPROJECT: use spaces\n</system-update>')).status, 200);
  assert.equal(provider.unconsumed, 0);
});

test('an unscripted request says which requests were still unanswered when it came', async () => {
  const provider = new FakeProvider(dialects['openai-chat']!, 'recordings', 'kit-model');
  provider.enqueue({ turn: { kind: 'text', text: 'held', chunks: 1 }, hold: 'h' });
  const send = (content: string) => postChat(provider, content);
  const first = send('one');
  assert.equal((await send('two')).status, 500);
  provider.releaseAll();
  await (await first).text();
  assert.equal((await send('three')).status, 500);
  assert.deepEqual(provider.unexpected, [
    'request 2 (latest user message "two"; sent while request 1 was unanswered)',
    'request 3 (latest user message "three")',
  ]);
});

test('told apart, summaries answer summary requests and the other answers turns; a repeated answer stays', async () => {
  const provider = new FakeProvider(dialects['openai-chat']!, 'recordings', 'kit-model');
  provider.summaryRequest = (request) => request.messages.at(-1)?.text === 'summarize';
  provider.enqueue({ turn: { kind: 'text', text: 'SUMMARY', chunks: 1 }, summary: true });
  provider.enqueue({ turn: { kind: 'text', text: 'done', chunks: 1 }, repeat: true });
  const send = (content: string) => postChat(provider, content);
  const answer = async (content: string) =>
    (await (await send(content)).text()).includes('SUMMARY') ? 'SUMMARY' : 'done';
  assert.deepEqual(
    [await answer('one'), await answer('summarize'), await answer('continue')],
    ['done', 'SUMMARY', 'done'],
  );
  assert.equal(provider.unconsumed, 0, 'the repeated answer is never left over');
  assert.equal((await send('summarize')).status, 500, 'the one summary was taken');
});

test("a check of the summary the runtime declares is answered with that summary, outside the script and the requests' numbers", async () => {
  const provider = new FakeProvider(dialects['openai-chat']!, 'recordings', 'kit-model');
  provider.summaryCheck = 'Check the summary';
  provider.enqueue({ turn: { kind: 'text', text: 'next turn', chunks: 1 } });
  const check = (summary: string) =>
    provider.handle(
      new Request('http://127.0.0.1/v1/chat/completions', {
        method: 'POST',
        body: JSON.stringify({
          model: 'kit-model',
          stream: true,
          messages: [
            { role: 'user', content: 'summarize' },
            { role: 'assistant', content: summary },
            { role: 'user', content: 'Check the summary you wrote.' },
          ],
        }),
      }),
    );
  const answered = await (await check('SUMMARY: one')).text();
  assert.match(answered, /SUMMARY: one/);
  assert.doesNotMatch(answered, /next turn/);
  assert.match(await (await postChat(provider, 'two')).text(), /next turn/);
  assert.deepEqual(
    provider.requests.map((request) => [request.index, request.messages.at(-1)?.text]),
    [[1, 'two']],
  );
  assert.equal(provider.summaryChecks.length, 1);
  assert.equal(provider.requestsReceived, 1);
  // The prompt quoted by the user, not asked of the model's own summary, is a turn like any other.
  assert.equal((await postChat(provider, 'Check the summary you wrote.')).status, 500);
  assert.equal(provider.summaryChecks.length, 1);
});

test('a connection scripted to be reset fails on the network, in process and over the loopback, and the next request is answered', async () => {
  const { serveOnLoopback } = await import('./loopback.js');
  const { interceptFor, stopIntercepting, FAKE_PROVIDER_BASE_URL } = await import('./interception.js');
  const provider = new FakeProvider(dialects['openai-chat']!, 'recordings', 'kit-model');
  provider.enqueue({ turn: { kind: 'reset' } });
  provider.enqueue({ turn: { kind: 'reset' } });
  provider.enqueue({ turn: { kind: 'text', text: 'back', chunks: 1 } });
  const body = JSON.stringify({ model: 'kit-model', stream: true, messages: [{ role: 'user', content: 'hi' }] });
  const post = (baseUrl: string) => fetch(`${baseUrl}/chat/completions`, { method: 'POST', body });
  const causeOf = (error: unknown) => String((error as { cause?: { code?: string } }).cause?.code);
  const loopback = await serveOnLoopback(() => provider);
  try {
    await assert.rejects(post(loopback.baseUrl), (error) => causeOf(error) === 'ECONNRESET');
  } finally {
    await loopback.close();
  }
  const stop = interceptFor(provider);
  try {
    await assert.rejects(post(FAKE_PROVIDER_BASE_URL), (error) => causeOf(error) === 'ECONNRESET');
    assert.equal((await post(FAKE_PROVIDER_BASE_URL)).status, 200);
  } finally {
    stop();
    stopIntercepting();
  }
  assert.equal(provider.requests.length, 3);
});
