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
