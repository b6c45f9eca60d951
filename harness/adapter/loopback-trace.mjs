import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const kit = fileURLToPath(new URL('../..', import.meta.url));

/**
 * Traces the connect() calls of a `kit smoke` run of `adapter` (a session, one prompt, its history,
 * a kill, a second scenario in a kept process) and of every process it starts. The whole run is
 * traced, the kit with it: strace reads a stdin of its own, so as the adapter's launcher it would be
 * taken for a process the runtime started and ended when the kit closes a scenario. Returns the
 * run, the Internet connects, and those that reached neither 127.0.0.1 nor ::1.
 */
export function traceSmokeConnects(adapter, { env = {}, timeoutScale = 10 } = {}) {
  const dir = mkdtempSync(join(tmpdir(), 'kit-connects-'));
  try {
    const run = spawnSync(
      'strace',
      [
        ...['-f', '-qq', '-e', 'trace=connect', '-e', 'signal=none', '-ff', '-o', join(dir, 'connect')],
        process.execPath,
        'cli/bin.js',
        'smoke',
        '--timeout-scale',
        String(timeoutScale),
        '--adapter',
        adapter,
      ],
      { cwd: kit, encoding: 'utf8', env: { ...process.env, ...env } },
    );
    const inet = readdirSync(dir)
      .flatMap((file) => readFileSync(join(dir, file), 'utf8').split('\n'))
      .filter((line) => line.startsWith('connect(') && /AF_INET6?/.test(line));
    const outside = inet.filter((line) => !/inet_addr\("127\.0\.0\.1"\)|inet_pton\(AF_INET6, "::1"/.test(line));
    return { run, inet, outside };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
