import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';

test('the stdio adapter exits when its stdin closes, even with a command still waiting', {
  timeout: 60_000,
}, async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'kit-stdio-close-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const adapter = spawn(process.execPath, ['--import', 'tsx', 'reference/adapter/stdio.ts'], {
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const replies = createInterface({ input: adapter.stdout! })[Symbol.asyncIterator]();
  const config = {
    storeDir: dir,
    provider: { dialect: 'openai-chat', baseUrl: 'http://127.0.0.1:9', apiKey: 'k', model: 'm' },
    now: '2026-01-15T09:00:00.000Z',
    home: dir,
    runDir: dir,
    instance: 0,
  };
  adapter.stdin!.write(`${JSON.stringify({ seq: 1, cmd: 'hello', protocol: 'session-runtime-adapter/1', config })}\n`);
  assert.equal(JSON.parse((await replies.next()).value as string).ok, true);
  // A gate nobody opens: the reply would never come.
  adapter.stdin!.write(`${JSON.stringify({ seq: 2, cmd: 'gate.wait', name: 'never' })}\n`);
  adapter.stdin!.end();
  const [code] = await once(adapter, 'exit');
  assert.equal(code, 0);
});

test('the stdio adapter opens a fresh runtime on each hello after runtime.close', { timeout: 60_000 }, async (t) => {
  const adapter = spawn(process.execPath, ['--import', 'tsx', 'reference/adapter/stdio.ts'], {
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const replies = createInterface({ input: adapter.stdout! })[Symbol.asyncIterator]();
  let seq = 0;
  const send = async (command: object) => {
    seq += 1;
    adapter.stdin!.write(`${JSON.stringify({ seq, ...command })}\n`);
    const reply = JSON.parse((await replies.next()).value as string);
    assert.equal(reply.seq, seq);
    return reply;
  };
  const hello = (dir: string) =>
    send({
      cmd: 'hello',
      protocol: 'session-runtime-adapter/1',
      config: {
        storeDir: dir,
        provider: { dialect: 'openai-chat', baseUrl: 'http://127.0.0.1:9', apiKey: 'k', model: 'm' },
        now: '2026-01-15T09:00:00.000Z',
        home: dir,
        runDir: dir,
        instance: 0,
      },
    });
  const create = (dir: string) => send({ cmd: 'session.create', location: dir, id: 's1' });
  try {
    for (const scenario of ['first', 'second']) {
      const dir = mkdtempSync(join(tmpdir(), `kit-stdio-reuse-${scenario}-`));
      t.after(() => rmSync(dir, { recursive: true, force: true }));
      const greeting = await hello(dir);
      assert.ok(greeting.result.capabilities.includes('process-reuse'));
      // The same session ID is new in each runtime: nothing of the previous one is kept.
      assert.deepEqual((await create(dir)).result, { sessionId: 's1', created: true });
      assert.deepEqual(await send({ cmd: 'runtime.close' }), { seq, ok: true, result: {} });
    }
  } finally {
    adapter.stdin!.end();
    await once(adapter, 'exit');
  }
});
