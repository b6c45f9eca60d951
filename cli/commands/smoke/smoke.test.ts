import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';

const smoke = (...args: string[]) => spawnSync(process.execPath, ['cli/bin.js', 'smoke', ...args], { encoding: 'utf8' });

test('the reference adapter passes the smoke test over stdio', () => {
  const run = smoke('--adapter', 'node --import tsx reference/adapter/stdio.ts');
  assert.equal(run.status, 0, run.stdout + run.stderr);
  assert.match(run.stdout, /✔ handshake: reference 0\.1\.0 \(typescript\)/);
  assert.match(run.stdout, /✔ kill/);
});

test('an adapter that cannot start fails the handshake with its stderr', () => {
  const run = smoke('--adapter', 'no-such-command-here');
  assert.equal(run.status, 1);
  assert.match(run.stdout, /✖ handshake: the adapter exited \(code 127\)[^]*not found/);
});

test('an adapter that implements nothing fails the smoke test at its first required command', () => {
  const run = smoke('--adapter', 'node fixtures/adapters/does-nothing.mjs');
  assert.equal(run.status, 1, run.stdout + run.stderr);
  assert.match(run.stdout, /✔ handshake: does-nothing[^]*✖ session: session\.create failed with unsupported/);
});
