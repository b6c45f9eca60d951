import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { ScenarioResult } from './scenario-results.js';
import { baselineOf, scenarioResult } from './results-for-tests.js';
import { judge } from './verdict.js';
import { formatSummary } from './summary.js';

const result = (id: string, status: ScenarioResult['status'], rules = ['INB-01']): ScenarioResult =>
  scenarioResult(
    id,
    status,
    rules,
    status === 'failed' ? { message: `AssertionError: ${id} broke`, step: `Then ${id} holds (line 4)` } : {},
  );

const baseline = baselineOf;

const known = ['k1', 'k2', 'k3', 'k4'];
const results = [
  ...known.map((id) => result(id, 'failed')),
  result('new', 'failed', ['INB-07']),
  result('p', 'passed'),
];
const verdict = judge(results, baseline(...known, 'p'));

test('with a baseline, the failures it expects are counted, not listed', () => {
  const text = formatSummary(results, 'rt', verdict);
  assert.match(
    text,
    /baseline known\.yaml: 4 expected failure\(s\), 1 unexpected pass\(es\), 1 unexpected failure\(s\); --verbose lists the expected ones\n/,
  );
  for (const id of known) assert.doesNotMatch(text, new RegExp(`${id} broke|@id:${id}\\)`));
});

test('what the baseline does not expect comes last, each by name with its failure, before the closing line', () => {
  const lines = formatSummary(results, 'rt', verdict).split('\n');
  const heading = lines.indexOf('not as the baseline expects:');
  assert.ok(heading > lines.findIndex((line) => line.startsWith('verdicts:')), 'after the rules and the table');
  assert.deepEqual(lines.slice(heading + 1), [
    '  ✖ passes now, remove it from the baseline: p (features/inbox/X1.feature:3)',
    '  ✖ failed, and the baseline does not list it: INB-07 features/inbox/X1.feature:3 [1] new (@id:new)',
    '      at: Then new holds (line 4)',
    '      new broke',
    '',
    'conformance: 1 passed, 5 failed, 4 of them expected by the baseline; not as the baseline expects: new failed, p passes now',
  ]);
});

test('--verbose lists the expected failures with their reasons, still before what broke', () => {
  const text = formatSummary(results, 'rt', verdict, true);
  assert.match(
    text,
    /expected by the baseline:\n {2}✔ failed as expected: INB-01 features\/inbox\/X1\.feature:3 \[1\] k1 \(@id:k1\)\n {6}reason: k1 is known\n {6}at: Then k1 holds/,
  );
  assert.ok(text.indexOf('expected by the baseline:') < text.indexOf('not as the baseline expects:'));
  assert.doesNotMatch(text, /--verbose lists/);
});

test('the closing line names the first five outcomes not as expected, and counts the rest', () => {
  const many = Array.from({ length: 7 }, (_, i) => result(`u${i}`, 'failed'));
  const line = formatSummary(many, 'rt', judge(many, baseline())).split('\n').at(-1);
  assert.equal(
    line,
    'conformance: 0 passed, 7 failed, 0 of them expected by the baseline; not as the baseline expects: u0 failed, u1 failed, u2 failed, u3 failed, u4 failed and 2 more',
  );
});

test('a run without a baseline lists every failure, after the rules, and its closing line only counts', () => {
  const plain = [result('a', 'failed'), result('b', 'passed')];
  const text = formatSummary(plain, 'rt', judge(plain));
  assert.match(text, /verdicts: .*\n\nfailing scenarios:\n {2}✖ failed: INB-01 .*\(@id:a\)\n/);
  assert.match(text, /\nconformance: 1 passed, 1 failed$/);
});

test('the closing line counts errored and not implemented scenarios apart from the failed ones', () => {
  const broken = [result('a', 'passed'), result('b', 'failed'), result('c', 'not implemented'), result('d', 'errored')];
  assert.equal(
    formatSummary(broken, 'rt', judge(broken)).split('\n').at(-1),
    'conformance: 1 passed, 1 failed, 1 not implemented, 1 errored',
  );
  const oneKnown = [result('a', 'failed'), result('b', 'errored')];
  assert.equal(
    formatSummary(oneKnown, 'rt', judge(oneKnown, baseline('a')))
      .split('\n')
      .at(-1),
    'conformance: 0 passed, 1 failed, 1 errored, 1 of the 2 expected by the baseline; not as the baseline expects: b errored',
  );
});
