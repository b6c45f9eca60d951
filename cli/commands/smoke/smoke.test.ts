import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { assertInputError, kit, SIDE_BY_SIDE } from '../../kit-for-tests.js';

const smoke = (...args: string[]) => kit(['smoke', ...args]);

describe('kit smoke', SIDE_BY_SIDE, () => {
  test('the reference adapter passes the smoke test over stdio', async () => {
    const run = await smoke('--adapter', 'node --import tsx reference/adapter/stdio.ts');
    assert.equal(run.status, 0, run.stdout + run.stderr);
    assert.match(run.stdout, /✔ handshake: reference 0\.1\.0 \(typescript\)/);
    assert.match(run.stdout, /✔ kill/);
    assert.match(
      run.stdout,
      /✔ the kept process: the next scenario found no session, prompt or reply of the one before, and each read its own home only/,
    );
  });

  test('a kept process that opens the next runtime over the store of the one before fails the smoke test', async () => {
    const run = await smoke('--adapter', 'node --import tsx fixtures/adapters/leaky-reuse.ts');
    assert.equal(run.status, 1, run.stdout + run.stderr);
    assert.match(run.stdout, /✖ the kept process: session s1 of the scenario before was found again/);
  });

  test('an adapter that cannot start fails the handshake with its stderr, as not driven', async () => {
    const run = await smoke('--adapter', 'no-such-command-here');
    assert.equal(run.status, 4);
    assert.match(run.stdout, /✖ handshake: the adapter exited \(code 127\)[\s\S]*not found/);
  });

  test('an adapter that never answers the handshake gets the likely causes and the --timeout-scale to try', async () => {
    const run = await smoke('--adapter', 'node -e "setInterval(() => {}, 1000)"', '--timeout-scale', '0.1');
    assert.equal(run.status, 4, run.stdout + run.stderr);
    assert.match(
      run.stdout,
      /^✖ handshake: the runtime did not answer hello within 6000 ms\n {2}Likely causes: the adapter does not flush its output after each reply .*, or the runtime starts slowly\. --timeout-scale 0\.3 gives every start and command 3 times the time this run had\.\n$/,
    );
  });

  test('an empty adapter or runtime, or an absurd timeout scale, is a usage error and nothing starts', async () => {
    const cases: [string[], RegExp][] = [
      [['--adapter', ''], /^kit: --adapter: needs a value/],
      [['--runtime', ''], /^kit: --runtime: needs a value/],
      [['--timeout-scale', 'Infinity'], /^kit: --timeout-scale: must be a number from 0\.1 to 100/],
    ];
    const runs = await Promise.all(cases.map(([args]) => kit(['smoke', ...args])));
    for (const [i, run] of runs.entries()) assertInputError(run, cases[i]![1]);
  });

  test('an adapter that implements nothing fails the smoke test at its first required command', async () => {
    const run = await smoke('--adapter', 'node fixtures/adapters/does-nothing.mjs');
    assert.equal(run.status, 1, run.stdout + run.stderr);
    assert.match(run.stdout, /✔ handshake: does-nothing[\s\S]*✖ session: session\.create failed with unsupported/);
  });
});
