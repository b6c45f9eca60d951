import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { ScenarioResult } from './scenario-results.js';
import { baselineOf, scenarioResult } from './results-for-tests.js';
import { judge, withStanding } from './verdict.js';
import { formatMarkdown } from './markdown.js';
import { conformanceBadge } from './badge.js';
import { formatSummary } from './summary.js';

const result = (id: string, status: ScenarioResult['status'], rules = ['INB-01']): ScenarioResult =>
  scenarioResult(
    id,
    status,
    rules,
    status === 'failed' ? { message: `AssertionError: ${id} | broke\n    at step (steps/x.ts:1:1)` } : {},
  );

const baseline = baselineOf;
const ids = (verdict: ReturnType<typeof judge>, outcome: Parameters<typeof withStanding>[1]) =>
  withStanding(verdict, outcome).map((s) => s.id);

test('without a baseline every failure fails the run', () => {
  const verdict = judge([result('a', 'passed'), result('b', 'failed'), result('c', 'not applicable')]);
  assert.equal(verdict.passed, false);
  assert.deepEqual(ids(verdict, 'unexpected-fail'), ['b']);
});

test('a listed failure is expected, an unlisted one and a listed pass are not', () => {
  const results = [result('a', 'failed'), result('b', 'failed'), result('c', 'passed'), result('d', 'not applicable')];
  const verdict = judge(results, baseline('a', 'c', 'd'));
  assert.equal(verdict.passed, false);
  assert.deepEqual(
    ['expected-fail', 'unexpected-fail', 'unexpected-pass', 'no verdict'].map((o) => ids(verdict, o as 'passed')),
    [['a'], ['b'], ['c'], ['d']],
  );
  assert.equal(judge([result('a', 'failed')], baseline('a')).passed, true);
});

test('an intermittent entry expects its failure and a pass alike; the summary says which happened', () => {
  const entries = new Map([['a', { class: 'deviation' as const, reason: 'races', intermittent: true }]]);
  const passing = judge([result('a', 'passed')], { file: 'known.yaml', entries });
  assert.deepEqual([passing.passed, ids(passing, 'intermittent-pass')], [true, ['a']]);
  assert.match(
    formatSummary([result('a', 'passed')], 'rt', passing, true),
    /1 intermittent failure\(s\) that passed this time\n\nexpected by the baseline:\n {2}✔ passed this time, fails on some runs: a \(races\)/,
  );
  const failing = judge([result('a', 'failed')], { file: 'known.yaml', entries });
  assert.deepEqual([failing.passed, ids(failing, 'expected-fail')], [true, ['a']]);
  assert.equal(conformanceBadge(passing).color, 'yellow');
});

const row = (outline: string, key: string, status: ScenarioResult['status']): ScenarioResult => ({
  ...result(`${outline}/${key}`, status),
  outline,
});

test("an outline's rows are judged one by one, or together when the baseline names the outline", () => {
  const rows = [row('o', 'small', 'passed'), row('o', 'large', 'failed')];
  const alone = judge(rows);
  assert.deepEqual([ids(alone, 'passed'), ids(alone, 'unexpected-fail')], [['o/small'], ['o/large']]);
  const together = judge(rows, baseline('o'));
  assert.deepEqual(ids(together, 'expected-fail'), ['o']);
  assert.equal(together.passed, true);
  const one = judge(rows, baseline('o/large'));
  assert.deepEqual([ids(one, 'passed'), ids(one, 'expected-fail')], [['o/small'], ['o/large']]);
  assert.equal(one.passed, true);
  // A row entry names its row: the outline's other rows are judged by themselves.
  const both = judge([...rows, row('o', 'equal', 'failed')], baseline('o', 'o/large'));
  assert.deepEqual([ids(both, 'expected-fail'), ids(both, 'unexpected-fail')], [['o', 'o/large'], []]);
});

test('the text summary separates the three baseline outcomes', () => {
  const results = [result('a', 'failed'), result('b', 'failed'), result('c', 'passed')];
  const text = formatSummary(results, 'rt', judge(results, baseline('a', 'c')), true);
  assert.match(
    text,
    /baseline known\.yaml: 1 expected failure\(s\), 1 unexpected pass\(es\), 1 unexpected failure\(s\)/,
  );
  assert.match(text, /✔ failed as expected: INB-01 .*\(@id:a\)\n {6}reason: a is known/);
  assert.match(text, /✖ passes now, remove it from the baseline: c/);
  assert.match(text, /✖ failed, and the baseline does not list it: INB-01 .*\(@id:b\)/);
  assert.doesNotMatch(text, / at step/);
});

test('the markdown summary has the area table, each failing scenario, and escapes table cells', () => {
  const results = [result('a', 'failed'), result('b', 'passed', ['INB-02'])];
  const markdown = formatMarkdown(results, 'rt', judge(results));
  assert.match(markdown, /^## Conformance: ❌ failed · 1 of 2 rules passed\n/);
  assert.match(markdown, /\| inbox \| 2 \| 1 \| 1 \| 0 \| 0 \| 0 \| 0 \| 1\/2 \|/);
  assert.match(markdown, /\| failed \| INB-01 \| `features\/inbox\/X1\.feature:3` \[1\] a \| `a` \|/);
  assert.match(markdown, /<details><summary>a: \[1\] a<\/summary>\n\n```\na \| broke\n```/);
});

test('the badge counts rules passed of those selected, then those without a verdict and not implemented', () => {
  const passing = [result('a', 'passed'), result('b', 'passed', ['INB-02'])];
  assert.deepEqual(conformanceBadge(judge(passing)), {
    schemaVersion: 1,
    label: 'conformance',
    message: '2/2 rules',
    color: 'brightgreen',
  });
  const known = [result('a', 'failed'), result('b', 'passed', ['INB-02']), result('c', 'not applicable', ['INB-03'])];
  assert.deepEqual(conformanceBadge(judge(known, baseline('a'))), {
    schemaVersion: 1,
    label: 'conformance',
    message: '1/3 rules · 1 n/a',
    color: 'yellow',
  });
  assert.equal(conformanceBadge(judge(known)).color, 'red');
  const missing = [result('a', 'not implemented'), result('b', 'passed', ['INB-02'])];
  assert.equal(conformanceBadge(judge(missing)).message, '1/2 rules · 1 not implemented');
});

test('coverage: rules with a verdict, not implemented apart, and each rule without one with its reasons', () => {
  const results = [
    result('a', 'not implemented'),
    result('b', 'failed', ['INB-02']),
    { ...result('c', 'not applicable', ['INB-03']), reason: 'needs capability pty' },
    { ...result('d', 'not applicable', ['INB-03']), reason: 'needs profile sol' },
    result('e', 'passed', ['INB-04']),
  ];
  const { coverage, shortfall } = judge(results);
  assert.deepEqual(coverage, {
    rules: 4,
    withVerdict: 3,
    outcomes: { 'INB-01': 'not implemented', 'INB-02': 'failed', 'INB-03': 'not applicable', 'INB-04': 'passed' },
    passed: ['INB-04'],
    failed: ['INB-02'],
    notImplemented: ['INB-01'],
    errored: [],
    notJudged: [],
    withoutVerdict: { 'INB-03': ['needs capability pty', 'needs profile sol'] },
  });
  assert.equal(shortfall, undefined);
  assert.match(
    judge(results, undefined, 80).shortfall!,
    /^verdicts on 75% of the selected rules, below --min-verdicts 80%$/,
  );
  // The share is compared as it is shown: 2 of 3 shows 66.6%, which meets a 66.6% floor and no higher.
  const twoOfThree = results.filter((r) => r.id !== 'a');
  assert.match(formatSummary(twoOfThree, 'rt', judge(twoOfThree)), /verdicts: 2 of 3 rules \(66\.6%\)/);
  assert.equal(judge(twoOfThree, undefined, 66.6).shortfall, undefined);
  assert.match(
    judge(twoOfThree, undefined, 66.7).shortfall!,
    /verdicts on 66\.6% of the selected rules, below --min-verdicts 66\.7%/,
  );
  const text = formatSummary(results, 'rt', judge(results));
  assert.match(
    text,
    /rules: 1 passed, 1 failed \(INB-02\), 1 not implemented \(INB-01\), 1 not applicable\n {2}no verdict, needs capability pty: INB-03\n {2}no verdict, needs profile sol: INB-03\nverdicts: 3 of 4 rules \(75%\)/,
  );
  assert.match(
    formatMarkdown(results, 'rt', judge(results)),
    /Verdicts on 3 of 4 rules \(75%\)\.\n\n\| no verdict because \| rules \|\n\|---\|---\|\n\| needs capability pty \| INB-03 \|/,
  );
});

test('a run in which no rule gets a verdict does not pass, even with nothing failed', () => {
  const verdict = judge([{ ...result('a', 'not applicable'), reason: 'needs capability pty' }]);
  assert.equal(verdict.passed, false);
  assert.match(verdict.shortfall!, /^no selected rule got a verdict/);
  assert.equal(judge([]).passed, true, 'an empty shard has nothing to judge');
});

test("a rule's outcome: a failure anywhere, then passed, not implemented, errored, not judged, not applicable", () => {
  const outcomes = (...statuses: ScenarioResult['status'][]) =>
    judge(statuses.map((status, i) => result(String(i), status))).coverage.outcomes['INB-01'];
  assert.equal(outcomes('passed', 'errored', 'failed'), 'failed');
  // A scenario the runtime could not run to the end does not unmake what another one saw.
  assert.equal(outcomes('passed', 'not implemented', 'errored'), 'passed');
  assert.equal(outcomes('not implemented', 'errored'), 'not implemented');
  assert.equal(outcomes('passed', 'errored'), 'passed');
  assert.equal(outcomes('not judged', 'errored'), 'errored');
  assert.equal(outcomes('not judged', 'passed', 'not applicable'), 'passed');
  assert.equal(outcomes('not judged', 'not applicable'), 'not judged');
  assert.equal(outcomes('not applicable'), 'not applicable');
});

test('a listed failure of another class than its entry says, or an errored one, is unexpected', () => {
  const listed = baseline('a', 'b');
  const verdict = judge([result('a', 'not implemented'), result('b', 'errored'), result('c', 'not judged')], listed);
  assert.deepEqual(ids(verdict, 'unexpected-fail'), ['a', 'b']);
  assert.deepEqual(
    verdict.scenarios.map((s) => s.mismatch),
    [
      'the baseline lists it as deviation, but it is not implemented',
      'the baseline lists it as deviation, but it errored',
      undefined,
    ],
  );
  assert.deepEqual(ids(verdict, 'no verdict'), ['c']);
  assert.equal(verdict.coverage.outcomes['INB-01'], 'not implemented');
});

test("a listed failure whose reason is about another rule than the failing check's is unexpected, named", () => {
  const entry = (reason: string) => ({
    file: 'known.yaml',
    entries: new Map([['a', { class: 'deviation' as const, reason }]]),
  });
  const failed = { ...result('a', 'failed', ['INB-01', 'INB-02']), charged: ['INB-02'], step: 'Then x (line 9)' };
  assert.deepEqual(ids(judge([failed], entry('INB-02: sent twice')), 'expected-fail'), ['a']);
  const other = judge([failed], entry('INB-01: stored once more'));
  assert.equal(other.passed, false);
  assert.match(
    other.scenarios[0]!.mismatch!,
    /^the baseline's reason is about INB-01, but the failure is charged to INB-02: the reason must describe the failing check$/,
  );
  // A later independent check's failure is news: an entry naming only the first failure's rule hides it.
  const twice = { ...failed, alsoFailed: [{ rules: ['INB-01'], step: 'Then y (line 10)', message: 'kept raw' }] };
  assert.match(
    judge([twice], entry('INB-02: sent twice')).scenarios[0]!.mismatch!,
    /^it also fails INB-01 \(Then y \(line 10\)\), which the baseline's reason does not name/,
  );
  assert.deepEqual(ids(judge([twice], entry('INB-02 INB-01: sent twice, and kept raw')), 'expected-fail'), ['a']);
  // A failure no one check was charged with is its scenario's rules'.
  const unnamed = { ...result('a', 'failed', ['INB-01']), step: 'Then x (line 9)' };
  assert.deepEqual(ids(judge([unnamed], entry('INB-01: x')), 'expected-fail'), ['a']);
  // One found after every check held names no check: the reason says whose it is.
  assert.deepEqual(ids(judge([result('a', 'failed', ['INB-01'])], entry('RUN-01: y')), 'expected-fail'), ['a']);
  // An intermittent entry names the checks it may fail at, one per run: one of them charged suffices.
  const either = {
    file: 'known.yaml',
    entries: new Map([['a', { class: 'deviation' as const, reason: 'INB-02/INB-01: z', intermittent: true }]]),
  };
  assert.deepEqual(ids(judge([failed], either), 'expected-fail'), ['a']);
  assert.equal(judge([failed], entry('INB-02/INB-01: z')).passed, false);
});

test('a listed "not implemented" whose reason does not name what the runtime lacks is unexpected, named', () => {
  const entry = (reason: string) => ({
    file: 'known.yaml',
    entries: new Map([['a', { class: 'not-implemented' as const, reason }]]),
  });
  const lacking = {
    ...result('a', 'not implemented', ['TLS-04']),
    step: 'Then request 1 offers the patch tool (line 9)',
    message: 'NotImplemented: not implemented: apply_patch (the runtime offers no such tool)',
  };
  assert.deepEqual(ids(judge([lacking], entry('TLS-04: no apply_patch tool')), 'expected-fail'), ['a']);
  assert.match(
    judge([lacking], entry('TLS-04: needs permission.wait, which the adapter answers unsupported')).scenarios[0]!
      .mismatch!,
    /^the baseline's reason does not name apply_patch, which the runtime lacks here/,
  );
  // A lack in words is not checked.
  const words = { ...lacking, message: 'not implemented: tools the provider executes (request 1 offers none)' };
  assert.deepEqual(ids(judge([words], entry('TLS-04: no tool of the provider')), 'expected-fail'), ['a']);
});

test('a rule is counted once, in the area holding most of its scenarios', () => {
  const results = [
    scenarioResult('a', 'passed', ['INB-07']),
    scenarioResult('b', 'passed', ['INB-07']),
    scenarioResult('c', 'passed', ['MCS-01', 'INB-07'], { area: 'system-messages' }),
  ];
  const text = formatSummary(results, 'rt', judge(results));
  assert.match(text, /\ninbox +2 +2 .* 1\/1\nsystem-messages +1 +1 .* 1\/1\n/);
  assert.match(text, /rules: 2 passed, 0 failed/);
});

test('a rule that passes on a minority of its scenarios shows its judged share', () => {
  const results = [
    scenarioResult('a', 'passed', ['INB-07']),
    ...['b', 'c', 'd'].map((id) => ({
      ...scenarioResult(id, 'not applicable', ['INB-07']),
      reason: 'needs capability pty',
    })),
  ];
  const line = '  passed on a minority of their scenarios: INB-07 (1 of 4 scenarios judged)';
  assert.ok(formatSummary(results, 'rt', judge(results)).includes(`\n${line}\n`));
  assert.match(
    formatMarkdown(results, 'rt', judge(results)),
    /\nPassed on a minority of their scenarios: INB-07 \(1 of 4 scenarios judged\)\.\n/,
  );
  const half = results.slice(0, 2);
  assert.ok(!formatSummary(half, 'rt', judge(half)).includes('minority'));
});
