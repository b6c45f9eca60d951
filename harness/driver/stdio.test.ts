import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { stdioLauncher } from './stdio.js';
import { RuntimeDriver } from './runtime-driver.js';
import type { RuntimeLauncher } from './transport.js';

/** Tests on one machine run side by side: each adapter carries a token that names its own processes. */
const token = (name: string) => `kit-reuse-test-${process.pid}-${name}`;

/** The living processes whose command line mentions `marker`, adapter and runtime apart. */
function processes(marker: string): { adapters: number; runtimes: number } {
  const found = { adapters: 0, runtimes: 0 };
  for (const pid of readdirSync('/proc').filter((entry) => /^\d+$/.test(entry))) {
    let cmdline: string;
    try {
      cmdline = readFileSync(`/proc/${pid}/cmdline`, 'utf8');
    } catch {
      continue;
    }
    // The shell the kit starts the adapter through mentions the marker too; it is not counted.
    if (!cmdline.includes(marker) || cmdline.startsWith('/bin/sh')) continue;
    if (cmdline.includes('kit-runtime-child')) found.runtimes += 1;
    else found.adapters += 1;
  }
  return found;
}

const config = (dir: string) => ({
  storeDir: `${dir}/store`,
  home: `${dir}/home`,
  runDir: `${dir}/run`,
  now: '2026-01-15T09:00:00.000Z',
  provider: { dialect: 'openai-chat' as const, baseUrl: 'http://127.0.0.1:9/v1', apiKey: 'k', model: 'm' },
});
const options = { timeoutScale: 1, validate: true };

/**
 * Runs `use` with a launcher of the fixture adapter started by `command` (`{marker}` stands for
 * the test's token), closed afterwards: nothing of it may outlive the launcher.
 */
async function withLauncher(
  name: string,
  command: string,
  use: (launcher: RuntimeLauncher, marker: string) => Promise<void>,
) {
  const marker = token(name);
  const launcher = stdioLauncher(command.replace('{marker}', marker));
  try {
    await use(launcher, marker);
  } finally {
    await launcher.close?.();
  }
  assert.deepEqual(processes(marker), { adapters: 0, runtimes: 0 }, 'nothing outlives the launcher');
}

/** The living processes with both `marker` and `name` among their arguments. */
function count(marker: string, name: string): number {
  return readdirSync('/proc')
    .filter((entry) => /^\d+$/.test(entry))
    .filter((pid) => {
      try {
        const args = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
        return args.includes(marker) && args.includes(name);
      } catch {
        return false;
      }
    }).length;
}

/** The number of hellos the process that answered the last one has answered. */
const hellos = (driver: RuntimeDriver) => driver.description.runtime.version;

test('a process declaring process-reuse serves the next runtime; what a runtime started ends with it', () =>
  withLauncher('reuse', 'node fixtures/adapters/reusable.mjs {marker}', async (launcher, marker) => {
    const first = await RuntimeDriver.start(launcher, config('/a'), options);
    assert.deepEqual(processes(marker), { adapters: 1, runtimes: 1 });
    await first.stop();
    assert.deepEqual(processes(marker), { adapters: 1, runtimes: 0 }, 'the runtime child is killed, the adapter kept');
    const second = await RuntimeDriver.start(launcher, config('/b'), options);
    assert.equal(hellos(second), '2', 'the kept process answered the second hello');
    // A restart is a real process start; the process that answers after it may be kept.
    await second.restart('2026-01-15T10:00:00.000Z');
    assert.equal(hellos(second), '1');
    assert.deepEqual(processes(marker), { adapters: 1, runtimes: 1 });
    await second.stop();
    assert.deepEqual(processes(marker), { adapters: 1, runtimes: 0 });
    const third = await RuntimeDriver.start(launcher, config('/c'), options);
    assert.equal(hellos(third), '2', 'the restarted process answered the next hello');
    await third.stop();
  }));

test('the processes runtime.close keeps are spared for the next hello; what they started ends with the scenario', () =>
  withLauncher('keep', 'node fixtures/adapters/reusable.mjs {marker} keep-server', async (launcher, marker) => {
    const first = await RuntimeDriver.start(launcher, config('/a'), options);
    const started = () => ({
      server: count(marker, 'kit-runtime-server'),
      child: count(marker, 'kit-runtime-server-child'),
    });
    assert.deepEqual(started(), { server: 1, child: 1 });
    await first.stop();
    assert.deepEqual(started(), { server: 1, child: 0 }, 'the kept server lives on, what it started does not');
    const second = await RuntimeDriver.start(launcher, config('/b'), options);
    assert.equal(hellos(second), '2', 'the kept process answered the second hello');
    assert.equal(count(marker, 'kit-runtime-server'), 1, 'the second hello found the kept server');
    await second.stop();
  }));

test('a process that fails runtime.close is killed, and a fresh one answers the next hello', () =>
  withLauncher('fail-close', 'node fixtures/adapters/reusable.mjs {marker} fail-close', async (launcher, marker) => {
    await (await RuntimeDriver.start(launcher, config('/a'), options)).stop();
    assert.deepEqual(processes(marker), { adapters: 0, runtimes: 0 });
    const next = await RuntimeDriver.start(launcher, config('/b'), options);
    assert.equal(hellos(next), '1');
    await next.stop();
  }));

test('a kept process that died meanwhile is replaced by a fresh one', () =>
  withLauncher('died', 'exec node fixtures/adapters/reusable.mjs {marker}', async (launcher) => {
    await (await RuntimeDriver.start(launcher, config('/a'), options)).stop();
    const kept = await launcher.takeKept?.();
    assert.ok(kept);
    await kept.kill();
    const next = await RuntimeDriver.start(launcher, config('/b'), options);
    assert.equal(hellos(next), '1');
    await next.stop();
  }));

test('a kept process does not keep the kit alive when its launcher is never closed, and ends with it', (t) => {
  const marker = token('unclosed');
  const dir = mkdtempSync(join(tmpdir(), 'kit-reuse-test-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const script = join(dir, 'unclosed.mts');
  writeFileSync(
    script,
    [
      `import { stdioLauncher } from ${JSON.stringify(new URL('./stdio.ts', import.meta.url).pathname)};`,
      `import { RuntimeDriver } from ${JSON.stringify(new URL('./runtime-driver.ts', import.meta.url).pathname)};`,
      `const launcher = stdioLauncher(${JSON.stringify(`node fixtures/adapters/reusable.mjs ${marker}`)});`,
      `const config = ${JSON.stringify(config('/a'))};`,
      'await (await RuntimeDriver.start(launcher, config, { timeoutScale: 1, validate: true })).stop();',
    ].join('\n'),
  );
  // The timeout only keeps a hanging kit from hanging the tests.
  const run = spawnSync(process.execPath, ['--import', 'tsx', script], { encoding: 'utf8', timeout: 60_000 });
  assert.equal(run.status, 0, run.stderr);
  assert.deepEqual(processes(marker), { adapters: 0, runtimes: 0 });
});
