import assert from 'node:assert/strict';
import { test } from 'node:test';
import { traceSmokeConnects } from '../../harness/adapter/loopback-trace.mjs';

/**
 * The adapter and the `copilot --headless` server it starts, traced through a smoke run in each
 * dialect Copilot CLI speaks: each connect() reaches the kit's loopback provider or a local
 * socket, and at least one reaches the provider, so the trace saw the real traffic.
 */
for (const dialect of ['openai-chat', 'anthropic-messages', 'openai-responses'])
  test(`Copilot CLI connects to nothing but loopback (${dialect})`, { timeout: 240_000 }, () => {
    const { run, inet, outside } = traceSmokeConnects('node adapters/copilot/adapter.mjs', {
      env: { KIT_DIALECT: dialect },
    });
    assert.equal(run.status, 0, `${run.stdout}${run.stderr}`);
    assert.deepEqual(outside, [], 'connections beyond loopback');
    assert.ok(inet.length > 0, 'the trace saw no connection to the provider');
  });
