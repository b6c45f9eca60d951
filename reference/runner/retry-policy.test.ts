import { test } from 'node:test';
import assert from 'node:assert/strict';
import { retryDelayMs, retryReason } from './retry-policy.js';
import { ProviderRejected } from '../provider/provider-turn-stream.js';

const now = new Date('2026-01-15T09:00:00.000Z');

test('delays double from 2 s and stop at 30 s', () => {
  assert.deepEqual(
    [1, 2, 3, 4, 5, 6].map((retry) => retryDelayMs(retry, null, now)),
    [2_000, 4_000, 8_000, 16_000, 30_000, 30_000],
  );
});

test('Retry-After in seconds or as an HTTP date sets the delay', () => {
  assert.equal(retryDelayMs(1, '3', now), 3_000);
  assert.equal(retryDelayMs(4, 'Thu, 15 Jan 2026 09:00:45 GMT', now), 45_000);
  assert.equal(retryDelayMs(1, 'Thu, 15 Jan 2026 08:00:00 GMT', now), 0);
});

test('rate limits, server errors and dropped connections may pass; other refusals may not', () => {
  assert.ok(retryReason(new ProviderRejected(429, '{}')));
  assert.ok(retryReason(new ProviderRejected(529, '{}')));
  assert.ok(retryReason(new TypeError('fetch failed', { cause: new Error('connect ECONNREFUSED 127.0.0.1:1') })));
  assert.equal(retryReason(new ProviderRejected(400, '{"error":{"code":"context_length_exceeded"}}')), undefined);
});
