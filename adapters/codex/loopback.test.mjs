import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';

const kit = fileURLToPath(new URL('../..', import.meta.url));

/**
 * The adapter, its `codex app-server` and everything that starts (the shell a command runs in),
 * traced through a smoke run over the Responses dialect (a handshake, a prompt answered, the
 * history read, a kill): every connect() of an Internet socket reaches 127.0.0.1 or ::1, and at
 * least one reaches the kit's provider, so the trace saw the real traffic. An analytics, update,
 * plugin or model-catalog call would show as a connect to its host, a DNS lookup as one to a resolver.
 */
test('Codex connects to nothing but loopback', { timeout: 240_000 }, () => {
  const dir = mkdtempSync(join(tmpdir(), 'codex-loopback-'));
  try {
    const trace = join(dir, 'connect');
    const run = spawnSync(
      'strace',
      [
        '-f',
        '-qq',
        '-e',
        'trace=connect',
        '-e',
        'signal=none',
        '-ff',
        '-o',
        trace,
        process.execPath,
        'cli/bin.js',
        'smoke',
        '--adapter',
        'node adapters/codex/adapter.mjs',
        '--timeout-scale',
        '6',
      ],
      { cwd: kit, env: { ...process.env, KIT_DIALECT: 'openai-responses' }, encoding: 'utf8' },
    );
    assert.equal(run.error, undefined, `strace could not run: ${run.error}`);
    assert.equal(run.status, 0, `kit smoke failed:\n${run.stdout}${run.stderr}`);
    const inet = readdirSync(dir)
      .flatMap((file) => readFileSync(join(dir, file), 'utf8').split('\n'))
      .filter((line) => /^connect\(\d+, \{sa_family=AF_INET6?/.test(line));
    assert.ok(
      inet.some((line) => line.includes('127.0.0.1')),
      'the trace shows no connection to the provider: it traced nothing',
    );
    const outside = inet.filter((line) => !/inet_addr\("127\.0\.0\.1"\)|inet_pton\(AF_INET6, "::1"/.test(line));
    assert.deepEqual(outside, [], 'connections beyond loopback');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
