import { test } from 'node:test';
import assert from 'node:assert/strict';
import { FakeProvider } from './fake-provider.js';
import { FAKE_PROVIDER_BASE_URL, interceptFor, stopIntercepting } from './interception.js';
import { dialects } from './wire/dialect.js';

const url = `${FAKE_PROVIDER_BASE_URL}/chat/completions`;
const body = JSON.stringify({ model: 'kit-model', stream: true, messages: [{ role: 'user', content: 'hi' }] });

function routed(): FakeProvider {
  const provider = new FakeProvider(dialects['openai-chat']!, 'recordings', 'kit-model');
  interceptFor(provider);
  return provider;
}

test('a POST to the provider is answered in process, as a string body or as a Request', async (t) => {
  t.after(stopIntercepting);
  const provider = routed();
  provider.enqueue({ turn: { kind: 'text', text: 'first', chunks: 2 } });
  provider.enqueue({ turn: { kind: 'text', text: 'second', chunks: 1 } });
  const first = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
  assert.equal(first.status, 200);
  assert.match(await first.text(), /"fir".*"st"/s);
  const second = await fetch(new Request(url, { method: 'post', body: new TextEncoder().encode(body) }));
  assert.match(await second.text(), /"second"/);
  assert.deepEqual(
    provider.requests.map((request) => request.messages),
    [[{ role: 'user', text: 'hi' }], [{ role: 'user', text: 'hi' }]],
  );
});

/** A rejection as `fetch` gives for a network failure, its cause matching `cause`. */
const networkError = (cause: RegExp) => (error: unknown) =>
  error instanceof TypeError && error.cause instanceof Error && cause.test(error.cause.message);

test('any other request is refused as a network error, and so is the provider once unrouted', async (t) => {
  t.after(stopIntercepting);
  const provider = routed();
  provider.enqueue({ turn: { kind: 'text', text: 'unused', chunks: 1 } });
  await assert.rejects(fetch('http://example.com/'), networkError(/not GET http:\/\/example\.com/));
  await assert.rejects(fetch(url, { method: 'GET' }), networkError(/not GET /));
  await assert.rejects(fetch(`${FAKE_PROVIDER_BASE_URL}/models`, { method: 'POST', body }), networkError(/models/));
  const stop = interceptFor(provider);
  stop();
  await assert.rejects(fetch(url, { method: 'POST', body }), networkError(/between scenarios/));
  assert.equal(provider.requests.length, 0);
});

test('an abort while the answer is held rejects the fetch; the answer released later is dropped', async (t) => {
  t.after(stopIntercepting);
  const provider = routed();
  provider.enqueue({ turn: { kind: 'text', text: 'held', chunks: 1 }, hold: 'h' });
  provider.enqueue({ turn: { kind: 'text', text: 'next', chunks: 1 } });
  const abort = new AbortController();
  const held = fetch(url, { method: 'POST', body, signal: abort.signal });
  await provider.received(1);
  assert.deepEqual([...provider.awaitedHolds], ['h']);
  abort.abort();
  await assert.rejects(held, { name: 'AbortError' });
  provider.release('h');
  const next = await fetch(url, { method: 'POST', body });
  assert.match(await next.text(), /"next"/);
  assert.equal(provider.maxInFlight, 2, 'the held request was open while the next one arrived');
});

test('an abort after the answer fails its body, as a fetch does', async (t) => {
  t.after(stopIntercepting);
  const provider = routed();
  provider.enqueue({ turn: { kind: 'text', text: 'cut', chunks: 3 } });
  const abort = new AbortController();
  const response = await fetch(url, { method: 'POST', body, signal: abort.signal });
  const reader = response.body!.getReader();
  await reader.read();
  abort.abort();
  await assert.rejects(reader.read(), { name: 'AbortError' });
  await assert.rejects(fetch(url, { method: 'POST', body, signal: abort.signal }), { name: 'AbortError' });
});

test('a refused request sent again with nothing scripted for it is refused the same way, five times at most', async (t) => {
  t.after(stopIntercepting);
  const provider = routed();
  provider.enqueue({ turn: { kind: 'error', status: 400, body: '{"error":{"message":"bad"}}' } });
  const statuses: number[] = [];
  for (let sent = 0; sent < 7; sent += 1) {
    const answer = await fetch(url, { method: 'POST', body });
    await answer.text();
    statuses.push(answer.status);
  }
  assert.deepEqual(statuses, [400, 400, 400, 400, 400, 400, 500]);
  assert.equal(provider.unexpected.length, 1, 'only the seventh request is one the scenario did not script');
  const other = JSON.stringify({ model: 'kit-model', stream: true, messages: [{ role: 'user', content: 'other' }] });
  assert.equal(
    (await fetch(url, { method: 'POST', body: other })).status,
    500,
    'another request is not refused for it',
  );
});
