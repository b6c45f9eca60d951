import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** Runs `kit run` as a user would, returning its exit code, output and JSON results. */
function kitRun(args: string[]) {
  const results = join(mkdtempSync(join(tmpdir(), 'kit-run-test-')), 'results.json');
  const run = spawnSync(process.execPath, ['cli/bin.js', 'run', ...args, '--results', results], { encoding: 'utf8' });
  const parsed = existsSync(results) ? JSON.parse(readFileSync(results, 'utf8')) : undefined;
  return { status: run.status, stdout: run.stdout, stderr: run.stderr, results: parsed };
}

function runningProcessesMentioning(marker: string): number {
  if (!existsSync('/proc')) return 0;
  return readdirSync('/proc').filter((pid) => {
    try {
      return /^\d+$/.test(pid) && readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes(marker);
    } catch {
      return false;
    }
  }).length;
}

const misbehaving = (mode: string) => ['--adapter', `node fixtures/adapters/misbehaving.mjs ${mode}`, '--rule', 'INB-02', '--timeout-scale', '0.1'];

for (const [mode, report] of [
  ['hang', /did not answer .* within 500 ms/],
  ['garbage', /the adapter wrote a line that is not JSON: this is not json/],
  ['die', /the adapter exited \(code 3\)[^]*giving up on purpose/],
] as const) {
  test(`an adapter that does "${mode}" fails its scenarios with that reason, and the run finishes`, () => {
    const run = kitRun(misbehaving(mode));
    assert.equal(run.status, 1, run.stderr);
    assert.equal(run.results.scenarios.length, 2);
    for (const scenario of run.results.scenarios) {
      assert.equal(scenario.status, 'failed');
      assert.match(scenario.message, report);
    }
    assert.equal(runningProcessesMentioning('misbehaving.mjs'), 0, 'no adapter process outlives the run');
  });
}

test('an adapter that supports nothing makes its scenarios not applicable, not failed', () => {
  const run = kitRun(['--adapter', 'node fixtures/adapters/misbehaving.mjs unsupported', '--rule', 'INB-02']);
  assert.equal(run.status, 0, run.stdout + run.stderr);
  assert.deepEqual(run.results.rules, { 'INB-02': 'not-applicable' });
  assert.deepEqual(
    run.results.scenarios.map((s: { status: string }) => s.status),
    ['not-applicable', 'not-applicable'],
  );
});

test('a rule ID that is not one is a usage error', () => {
  const run = kitRun(['--rule', 'INB7']);
  assert.equal(run.status, 2);
  assert.match(run.stderr, /--rule: "INB7" is not a rule ID like INB-07/);
});

test('a tag expression that selects nothing is a usage error', () => {
  const run = kitRun(['--tags', '@no-such-tag']);
  assert.equal(run.status, 2);
  assert.match(run.stderr, /no scenario matches/);
});
