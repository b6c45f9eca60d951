import { test } from 'node:test';
import assert from 'node:assert/strict';
import { FakeProvider } from './fake-provider.js';
import { dialects } from './wire/dialect.js';

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
