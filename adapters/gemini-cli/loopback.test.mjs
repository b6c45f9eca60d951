import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';

const kit = fileURLToPath(new URL('../..', import.meta.url));

/**
 * The adapter and the gemini --acp process it starts, traced through a smoke run (a session, one
 * prompt, its history, a kill, a second scenario in the kept process): each connect() they make
 * reaches the kit's loopback provider or a local socket, and at least one reaches the provider, so
 * the trace saw the real traffic. The whole smoke run is traced, the kit with it: strace reads a
 * stdin of its own, so as the adapter's launcher it would be taken for a process the runtime
 * started and ended when the kit closes a scenario.
 */
test('Gemini CLI connects to nothing but loopback', { timeout: 240_000 }, () => {
  const dir = mkdtempSync(join(tmpdir(), 'gemini-loopback-'));
  try {
    const trace = join(dir, 'connect');
    const run = spawnSync(
      'strace',
      [
        ...['-f', '-qq', '-e', 'trace=connect', '-e', 'signal=none', '-ff', '-o', trace],
        process.execPath,
        'cli/bin.js',
        'smoke',
        '--timeout-scale',
        '10',
        '--adapter',
        'node adapters/gemini-cli/adapter.mjs',
      ],
      { cwd: kit, encoding: 'utf8', env: { ...process.env, KIT_DIALECT: 'gemini' } },
    );
    assert.equal(run.status, 0, `${run.stdout}${run.stderr}`);
    const calls = readdirSync(dir)
      .flatMap((file) => readFileSync(join(dir, file), 'utf8').split('\n'))
      .filter((line) => line.startsWith('connect('));
    const inet = calls.filter((line) => /AF_INET6?/.test(line));
    const outside = inet.filter((line) => !/inet_addr\("127\.0\.0\.1"\)|inet_pton\(AF_INET6, "::1"/.test(line));
    assert.deepEqual(outside, [], 'connections beyond loopback');
    assert.ok(inet.length > 0, 'the trace saw no connection to the provider');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
