import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { ScenarioResult } from './scenario-results.js';
import { baselineOf, scenarioResult } from './results-for-tests.js';
import { judge } from './verdict.js';
import { formatMarkdown } from './markdown.js';

const result = (id: string, status: ScenarioResult['status'], rules: string[]): ScenarioResult =>
  scenarioResult(id, status, rules);
const baseline = baselineOf;
const heading = (markdown: string) => markdown.split('\n')[0];

// A runtime that passes one rule of four, the rest failing as its baseline expects.
const few = [
  result('a', 'passed', ['INB-01']),
  result('b', 'failed', ['INB-02']),
  result('c', 'failed', ['INB-03']),
  result('d', 'failed', ['INB-04']),
];

test('a run that passes on its baseline is "no change against the baseline", then the rules passed', () => {
  assert.equal(
    heading(formatMarkdown(few, 'rt', judge(few, baseline('b', 'c', 'd')))),
    '## Conformance: ✅ no change against the baseline · 1 of 4 rules passed',
  );
});

test('a run with nothing for the baseline to carry passes, and says how many rules passed', () => {
  const all = few.map((r) => ({ ...r, status: 'passed' as const }));
  assert.equal(heading(formatMarkdown(all, 'rt', judge(all))), '## Conformance: ✅ passed · 4 of 4 rules passed');
  assert.equal(
    heading(formatMarkdown(all.slice(0, 1), 'rt', judge(all.slice(0, 1), baseline()))),
    '## Conformance: ✅ passed · 1 of 1 rules passed',
  );
});

test('a failing run says so, naming what the baseline does not expect, with the rules passed', () => {
  assert.equal(
    heading(formatMarkdown(few, 'rt', judge(few, baseline('b', 'c')))),
    '## Conformance: ❌ failed · not as the baseline expects: d · 1 of 4 rules passed',
  );
  assert.equal(heading(formatMarkdown(few, 'rt', judge(few))), '## Conformance: ❌ failed · 1 of 4 rules passed');
});

test('the summary counts what the baseline expects, folded, and lists what it does not expect', () => {
  const markdown = formatMarkdown(few, 'rt', judge(few, baseline('b', 'c')));
  const folded = markdown.indexOf('<details><summary>2 outcome(s) the baseline expects</summary>');
  const unexpected = markdown.indexOf('Not as the baseline expects:');
  assert.ok(folded > 0 && unexpected > folded, markdown);
  assert.match(markdown.slice(unexpected), /\| failed \| INB-04 \|.*`d` \|/);
  assert.doesNotMatch(markdown.slice(unexpected), /`b`|`c`/);
});

test("each failing row of an outline the baseline lists once is a row of the summary's failure table", () => {
  const rows = [1, 2, 3].map((n) =>
    scenarioResult(`o-${n}`, n === 2 ? 'passed' : 'failed', ['INB-02'], {
      outline: 'o',
      line: 10 + n,
      name: `row ${n}`,
    }),
  );
  const table = formatMarkdown(rows, 'rt', judge(rows, baseline('o')))
    .split('\n')
    .filter((line) => line.startsWith('| failed, expected'));
  assert.deepEqual(
    table.map((line) => line.match(/`(features[^`]*)`/)?.[1]),
    ['features/inbox/X1.feature:11', 'features/inbox/X1.feature:13'],
  );
});
