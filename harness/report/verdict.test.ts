import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { ScenarioResult } from './scenario-results.js';
import { judge, withOutcome } from './verdict.js';
import { formatMarkdown } from './markdown.js';
import { conformanceBadge } from './badge.js';
import { formatSummary } from './summary.js';

const result = (id: string, status: ScenarioResult['status'], rules = ['INB-01']): ScenarioResult => ({
  id,
  name: `[1] ${id}`,
  uri: 'features/inbox/X1.feature',
  line: 3,
  rules,
  area: 'inbox',
  status,
  ...(status === 'failed' ? { message: `AssertionError: ${id} | broke\n    at step (steps/x.ts:1:1)` } : {}),
});

const baseline = (...ids: string[]) => ({ file: 'known.yaml', reasons: new Map(ids.map((id) => [id, `${id} is known`])) });
const ids = (verdict: ReturnType<typeof judge>, outcome: Parameters<typeof withOutcome>[1]) => withOutcome(verdict, outcome).map((s) => s.id);

test('without a baseline every failure fails the run', () => {
  const verdict = judge([result('a', 'passed'), result('b', 'failed'), result('c', 'not-applicable')]);
  assert.equal(verdict.passed, false);
  assert.deepEqual(ids(verdict, 'unexpected-fail'), ['b']);
});

test('a listed failure is expected, an unlisted one and a listed pass are not', () => {
  const results = [result('a', 'failed'), result('b', 'failed'), result('c', 'passed'), result('d', 'not-applicable')];
  const verdict = judge(results, baseline('a', 'c', 'd'));
  assert.equal(verdict.passed, false);
  assert.deepEqual(
    ['expected-fail', 'unexpected-fail', 'unexpected-pass', 'not-applicable'].map((o) => ids(verdict, o as 'passed')),
    [['a'], ['b'], ['c'], ['d']],
  );
  assert.equal(judge([result('a', 'failed')], baseline('a')).passed, true);
});

test("an outline's rows are judged together under their ID", () => {
  const verdict = judge([result('o', 'passed'), result('o', 'failed')], baseline('o'));
  assert.deepEqual(ids(verdict, 'expected-fail'), ['o']);
  assert.equal(verdict.passed, true);
});

test('the text summary separates the three baseline outcomes', () => {
  const results = [result('a', 'failed'), result('b', 'failed'), result('c', 'passed')];
  const text = formatSummary(results, 'rt', judge(results, baseline('a', 'c')));
  assert.match(text, /baseline known\.yaml: 1 expected failure\(s\), 1 unexpected pass\(es\), 1 unexpected failure\(s\)/);
  assert.match(text, /✔ fails as expected: a \(a is known\)/);
  assert.match(text, /✖ passes now, remove it from the baseline: c/);
  assert.match(text, /✖ fails, and the baseline does not list it: b/);
  assert.doesNotMatch(text, / at step/);
});

test('the markdown summary has the area table, each failing scenario, and escapes table cells', () => {
  const results = [result('a', 'failed'), result('b', 'passed', ['INB-02'])];
  const markdown = formatMarkdown(results, 'rt', judge(results));
  assert.match(markdown, /^## Conformance: ❌ failed\n/);
  assert.match(markdown, /\| inbox \| 2 \| 1 \| 1 \| 0 \| 1\/2 \|/);
  assert.match(markdown, /\| failed \| INB-01 \| `features\/inbox\/X1\.feature:3` \[1\] a \| `a` \|/);
  assert.match(markdown, /<details><summary>a: \[1\] a<\/summary>\n\n```\nAssertionError: a \| broke\n```/);
});

test('the badge is green, yellow with only known failures, red when the run fails', () => {
  const passing = [result('a', 'passed'), result('b', 'passed', ['INB-02'])];
  assert.deepEqual(conformanceBadge(passing, judge(passing)), { schemaVersion: 1, label: 'conformance', message: '2/2 rules', color: 'brightgreen' });
  const known = [result('a', 'failed'), result('c', 'not-applicable', ['INB-03'])];
  assert.deepEqual(conformanceBadge(known, judge(known, baseline('a'))), { schemaVersion: 1, label: 'conformance', message: '0/1 rules, 1 n/a', color: 'yellow' });
  assert.equal(conformanceBadge(known, judge(known)).color, 'red');
});
