import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  dialectDifferences,
  field,
  fieldTable,
  forkDifferences,
  FIELD_END,
  FIELD_START,
  withFieldTable,
  withoutCell,
  type FieldRuntime,
} from './field-comparison.js';
import { fieldPage } from './field-page.js';
import { judgementName, type JudgedRuntime } from './runtime-report.js';

const counts = { passed: 1, failed: 1, notImplemented: 0, notApplicable: 0, errored: 0, notJudged: 0 };
const judged: JudgedRuntime[] = [
  {
    runtime: 'zeta',
    version: '2.0',
    date: '2026-01-15',
    counts,
    rules: { 'INB-01': { outcome: 'failed', note: 'INB-01: sent "B" <before> C' } },
  },
  { runtime: 'alpha', version: '1.0', date: '2026-01-14', counts, rules: { 'INB-01': { outcome: 'passed' } } },
];
const rules = [
  { id: 'INB-01', area: 'INB: Sessions', statement: 'A prompt is admitted once.' },
  { id: 'RUN-01', area: 'RUN: The runner', statement: 'One drain at a time.' },
];

test('a row per rule and a column per runtime in name order; a rule a runtime was not judged on has no cell', () => {
  const { runtimes, rows } = field(judged, rules);
  assert.deepEqual(
    runtimes.map((r) => r.runtime),
    ['alpha', 'zeta'],
  );
  assert.deepEqual(
    rows.map((row) => [row.rule.id, row.cells.map((cell) => cell?.outcome)]),
    [
      ['INB-01', ['passed', 'failed']],
      ['RUN-01', [undefined, undefined]],
    ],
  );
});

test('the markdown twin links each runtime report and replaces only its own section', () => {
  const table = fieldTable(field(judged, rules));
  assert.match(
    table,
    /\| rule \| \[alpha 1\.0\]\(adapters\/alpha\/REPORT\.md\) \| \[zeta 2\.0\]\(adapters\/zeta\/REPORT\.md\) \|/,
  );
  assert.match(table, /\| INB-01 \| ✅ passed \| ❌ failed \|/);
  assert.match(table, /\| RUN-01 \| indexed after this runtime was judged \| indexed after this runtime was judged \|/);
  const readme = `before\n${FIELD_START}\nold\n${FIELD_END}\nafter\n`;
  assert.equal(withFieldTable(readme, table), `before\n${table}\nafter\n`);
});

test('the page escapes notes, says why on hover and links a failure to its evidence', () => {
  const page = fieldPage(field(judged, rules), 2);
  assert.match(
    page,
    /<td class="tint o-failed" data-outcome="failed" title="INB-01: sent &quot;B&quot; &lt;before&gt; C"><span class="shape o-failed" aria-hidden="true">✗<\/span><a href="\.\.\/\.\.\/adapters\/zeta\/REPORT\.md#inb-01-failed">failed<\/a><\/td>/,
  );
  assert.match(page, /<tr data-area="INB: Sessions" data-outcomes="passed\|failed">/);
  assert.doesNotMatch(page, /<script src|<link /, 'the page loads nothing from elsewhere');
});

test('a runtime judged on some profiles is outside its profiles on the other rules, in words no outcome has', () => {
  const page = fieldPage(field([...judged, { ...judged[1]!, runtime: 'beta', only: '@profile:sol' }], rules), 2);
  const rows = page.split('\n').filter((line) => line.startsWith('<tr data-area="RUN'));
  assert.equal(rows.length, 1);
  assert.match(
    rows[0]!,
    /<td class="outside">.*outside this runtime&#39;s profiles<\/td><td class="outside">.*indexed after this runtime was judged<\/td>/,
  );
  assert.doesNotMatch(page, /not judged yet/);
  assert.match(page, /judged on <code>@profile:sol<\/code> only/);
});

test('the summary gives each runtime a bar of its outcomes and its pass share, and each area a cell per runtime', () => {
  const page = fieldPage(field(judged, rules), 2);
  const totals = page.split('\n').filter((line) => line.includes('<td class="share">'));
  assert.deepEqual(
    totals.map((line) =>
      /<a [^>]*>([^<]+)<\/a>.*aria-label="([^"]+)".*<td class="share">(.*)<\/td>/.exec(line)?.slice(1),
    ),
    [
      ['alpha 1.0', '1 passed, 1 indexed after this runtime was judged', '1 / 1 <small>100 %</small>'],
      ['zeta 2.0', '1 failed, 1 indexed after this runtime was judged', '0 / 1 <small>0 %</small>'],
    ],
  );
  assert.match(page, /<td title="zeta on INB: 1 failed"><a href="#rules" data-area="INB: Sessions">0 \/ 1 /);
  assert.match(
    page,
    /<td title="zeta on RUN: 1 indexed after this runtime was judged"><a href="#rules" data-area="RUN: The runner"><small>indexed after/,
  );
});

test('a runtime judged in several dialects has a column per dialect, side by side, and its differing rules are named', () => {
  const dialects: JudgedRuntime[] = [
    {
      ...judged[1]!,
      runtime: 'beta',
      dialect: 'openai-responses',
      // RUN-01 only this dialect's judgement runs: no difference.
      rules: { 'INB-01': { outcome: 'failed' }, 'RUN-01': { outcome: 'passed' } },
    },
    ...judged,
    { ...judged[1]!, runtime: 'beta', dialect: 'anthropic-messages', rules: { 'INB-01': { outcome: 'passed' } } },
  ];
  const comparison = field(dialects, rules);
  assert.deepEqual(
    comparison.runtimes.map((r) => judgementName(r)),
    ['alpha', 'beta (anthropic-messages)', 'beta (openai-responses)', 'zeta'],
  );
  assert.match(
    fieldTable(comparison),
    /\[beta \(openai-responses\) 1\.0\]\(adapters\/beta\/openai-responses\/REPORT\.md\)/,
  );
  assert.deepEqual(dialectDifferences(comparison), [
    {
      runtime: 'beta',
      rule: 'INB-01',
      outcomes: { 'anthropic-messages': 'passed', 'openai-responses': 'failed' },
    },
  ]);
});

test('a fork stands right after the runtime it was forked from, and the rules on which the two differ are marked', () => {
  const fork: FieldRuntime = {
    runtime: 'aardvark',
    version: '7.0',
    date: '2026-01-16',
    counts,
    forkOf: 'zeta',
    rules: { 'INB-01': { outcome: 'passed' }, 'RUN-01': { outcome: 'failed' } },
  };
  const comparison = field([...judged, fork], rules);
  assert.deepEqual(
    comparison.runtimes.map((r) => r.runtime),
    ['alpha', 'zeta', 'aardvark'],
  );
  assert.deepEqual(forkDifferences(comparison), [{ fork: 'aardvark', parent: 'zeta', rules: ['INB-01', 'RUN-01'] }]);
  const table = fieldTable(comparison);
  assert.match(table, /\[aardvark 7\.0\]\(adapters\/aardvark\/REPORT\.md\) \(fork of zeta\)/);
  assert.match(table, /\| INB-01 \| ✅ passed \| ❌ failed \| ✅ passed ≠ \|/);
  const page = fieldPage(comparison, 2);
  assert.match(page, /title="differs from zeta, which it was forked from, failed"/);
  assert.match(page, /title="differs from zeta, which it was forked from, was not judged on it"/);
  // The same outcome is no difference.
  const alike = field([...judged, { ...fork, rules: { 'INB-01': { outcome: 'failed' } } }], rules);
  assert.deepEqual(forkDifferences(alike), [{ fork: 'aardvark', parent: 'zeta', rules: [] }]);
});

test("a judgement in one of a runtime's dialects says a rule of another dialect's scenarios was judged there", () => {
  const chat: FieldRuntime = { ...judged[1]!, runtime: 'multi', dialect: 'openai-chat', rules: {} };
  assert.match(withoutCell(chat), /judged in another of this runtime's dialects/);
});
