import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { assertInputError, IGNORES_MESSAGE_IDS, kit, scratch, SIDE_BY_SIDE } from '../../kit-for-tests.js';

describe('kit baseline', SIDE_BY_SIDE, () => {
  test('kit baseline --write records the failures, which a run with that baseline then accepts', async () => {
    const file = join(scratch('baseline-write'), 'ci', 'known-failures.yaml');
    const written = await kit(['baseline', '--write', file, ...IGNORES_MESSAGE_IDS]);
    assert.equal(written.status, 0, written.stderr);
    assert.match(written.stdout, /baseline: 1 known failure\(s\) written to /);
    const text = readFileSync(file, 'utf8');
    assert.match(
      text,
      /# INB-02 features\/inbox\/Admission1\.feature:\d+ \[4\] An exact retry[^\n]*\n {2}inb-admission-4:\n {4}class: deviation\n {4}reason: ['"]?inb-admission-4 fails: expected messageId "m1", saw "msg_/,
    );
    assert.equal((await kit(['run', ...IGNORES_MESSAGE_IDS, '--baseline', file])).status, 0);
  });

  test('rewriting a baseline keeps the reasons written for scenarios that still fail', async () => {
    const file = join(scratch('baseline-rewrite'), 'known-failures.yaml');
    writeFileSync(
      file,
      'known-failures:\n  inb-admission-4:\n    class: deviation\n    reason: our store makes its own IDs\n  inb-admission-3:\n    class: deviation\n    reason: fixed since\n',
    );
    assert.equal((await kit(['baseline', '--write', file, ...IGNORES_MESSAGE_IDS])).status, 0);
    const text = readFileSync(file, 'utf8');
    assert.match(text, /inb-admission-4:\n {4}class: deviation\n {4}reason: our store makes its own IDs\n/);
    assert.doesNotMatch(text, /inb-admission-3/);
  });

  test('--write is required, and nothing runs without it', async () => {
    const run = await kit(['baseline', '--rule', 'INB-01']);
    assert.equal(run.status, 2);
    assert.equal(
      run.stderr,
      'kit: --write: missing: the YAML file to write; reasons of entries already in it are kept (kit --help for usage)\n',
    );
    assert.equal(run.stdout, '');
  });

  test('an empty --write, one that is a directory, and bad selections are usage errors before anything runs', async () => {
    const cases: [string[], RegExp][] = [
      [['--write', ''], /^kit: --write: needs a value/],
      [['--write', scratch('baseline-dir')], /^kit: --write: .* is a directory, not a file/],
      [['--write', 'x.yaml', '--tags', ''], /^kit: --tags: needs a value/],
      [['--write', 'x.yaml', '--rule'], /^kit: --rule: needs at least one value/],
      [['--write', 'x.yaml', '--adapter', ''], /^kit: --adapter: needs a value/],
    ];
    const runs = await Promise.all(cases.map(([args]) => kit(['baseline', ...args])));
    runs.forEach((run, i) => {
      assertInputError(run, cases[i]![1]);
      assert.equal(run.stdout, '');
    });
  });
});
