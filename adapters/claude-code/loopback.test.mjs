import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';

/**
 * Claude Code, run as the adapter runs it, opens no connection but to the kit's loopback
 * provider: `kit smoke` (a handshake, a prompt answered, the history read, a kill) under
 * `strace -f -e trace=connect`, and every connect of an Internet socket, by the kit, the adapter or
 * Claude Code and anything it starts, goes to 127.0.0.1 or ::1. A DNS lookup would show as a
 * connect to a resolver, a telemetry or update call as one to its host.
 */
const kit = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');

test('the judged Claude Code connects to loopback only', () => {
  const dir = mkdtempSync(join(tmpdir(), 'kit-claude-code-connects-'));
  try {
    const trace = join(dir, 'connects.txt');
    const run = spawnSync(
      'strace',
      [
        '-f',
        '-e',
        'trace=connect',
        '-o',
        trace,
        process.execPath,
        join(kit, 'cli', 'bin.js'),
        'smoke',
        '--adapter',
        'node adapters/claude-code/adapter.mjs',
        // strace slows every system call of the runtime.
        '--timeout-scale',
        '6',
      ],
      { cwd: kit, env: { ...process.env, KIT_DIALECT: 'anthropic-messages' }, encoding: 'utf8' },
    );
    assert.equal(run.error, undefined, `strace could not run: ${run.error}`);
    assert.equal(run.status, 0, `kit smoke failed:\n${run.stdout}${run.stderr}`);
    const connects = readFileSync(trace, 'utf8')
      .split('\n')
      .filter((line) => /connect\(\d+, \{sa_family=AF_INET6?/.test(line));
    assert.ok(
      connects.some((line) => line.includes('127.0.0.1')),
      'the trace shows no connection to the provider: it traced nothing',
    );
    const outside = connects.filter((line) => !/inet_addr\("127\.0\.0\.1"\)|inet_pton\(AF_INET6, "::1"/.test(line));
    assert.deepEqual(outside, [], 'connections beyond loopback');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
