import { test } from 'node:test';
import assert from 'node:assert/strict';
import { field, fieldTable, FIELD_END, FIELD_START, withFieldTable } from './field-comparison.js';
import { fieldPage } from './field-page.js';
import type { JudgedRuntime } from './runtime-report.js';

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
  const readme = `before\n${FIELD_START}\nold\n${FIELD_END}\nafter\n`;
  assert.equal(withFieldTable(readme, table), `before\n${table}\nafter\n`);
});

test('the page escapes notes, says why on hover and links a failure to its evidence', () => {
  const page = fieldPage(field(judged, rules), 2);
  assert.match(
    page,
    /<td class="failed" data-outcome="failed" title="INB-01: sent &quot;B&quot; &lt;before&gt; C"><a href="\.\.\/\.\.\/adapters\/zeta\/REPORT\.md#inb-01-failed">failed<\/a><\/td>/,
  );
  assert.match(page, /<tr data-area="INB: Sessions" data-outcomes="passed\|failed">/);
  assert.match(page, /<td class="none">not judged yet<\/td>/);
  assert.doesNotMatch(page, /<script src|<link /, 'the page loads nothing from elsewhere');
});
