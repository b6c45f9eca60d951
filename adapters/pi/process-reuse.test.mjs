import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { connectAdapter } from '../../harness/adapter/adapter-client.mjs';

/**
 * The adapter declares process-reuse: after `runtime.close`, the next `hello` must open a runtime
 * that keeps nothing of the one before. What the first runtime made (a session, a subscription,
 * a session counter, diagnostics, the temporary directory) is looked for from the second.
 */
const adapter = join(dirname(fileURLToPath(import.meta.url)), 'adapter.mjs');

const connect = () => connectAdapter(adapter);

const hello = (dir, name, extra = {}) => ({
  cmd: 'hello',
  protocol: 'session-runtime-adapter/1',
  config: {
    storeDir: join(dir, name, 'store'),
    home: join(dir, name, 'home'),
    now: '2026-01-15T10:00:00.000Z',
    instance: 0,
    provider: { dialect: 'openai-chat', baseUrl: 'http://127.0.0.1:9/v1', apiKey: 'kit', model: 'kit-model' },
    ...extra,
  },
});

test('a runtime opened after runtime.close keeps nothing of the one before', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'kit-pi-reuse-'));
  const { send, end } = connect();
  try {
    const first = await send(hello(dir, 'a', { timeZone: 'Asia/Tokyo' }));
    assert.ok(first.result.capabilities.includes('process-reuse'));
    assert.deepEqual((await send({ cmd: 'session.create', location: dir })).result, {
      sessionId: 'session_0_1',
      created: true,
    });
    await send({ cmd: 'session.create', id: 's1', location: dir });
    assert.equal((await send({ cmd: 'events.subscribe', sessionId: 's1' })).result.subscription, 'sub_1');
    assert.deepEqual((await send({ cmd: 'runtime.close' })).ok, true);

    assert.equal((await send(hello(dir, 'b'))).ok, true);
    assert.equal((await send({ cmd: 'history', sessionId: 's1' })).error?.code, 'not-found');
    await send({ cmd: 'session.create', id: 's1', location: dir });
    assert.equal((await send({ cmd: 'events.take', subscription: 'sub_1' })).error?.code, 'not-found');
    assert.deepEqual((await send({ cmd: 'diagnostics' })).result, { diagnostics: [] });
    assert.equal((await send({ cmd: 'tool-output.files' })).result.directory, join(dir, 'b', 'store', 'tmp'));
    assert.deepEqual((await send({ cmd: 'session.create', location: dir })).result, {
      sessionId: 'session_0_2',
      created: true,
    });
  } finally {
    end();
    rmSync(dir, { recursive: true, force: true });
  }
});
