import assert from 'node:assert/strict';
import { test } from 'node:test';
import { traceSmokeConnects } from '../../harness/adapter/loopback-trace.mjs';

/**
 * The adapter and the cn serve process it starts, traced through a smoke run: each connect()
 * reaches the kit's loopback provider or a local socket, and at least one reaches the provider, so
 * the trace saw the real traffic.
 */
test('Continue connects to nothing but loopback', { timeout: 240_000 }, () => {
  const { run, inet, outside } = traceSmokeConnects('node adapters/continue/adapter.mjs');
  assert.equal(run.status, 0, `${run.stdout}${run.stderr}`);
  assert.deepEqual(outside, [], 'connections beyond loopback');
  assert.ok(inet.length > 0, 'the trace saw no connection to the provider');
});
