import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { lintSuite, readRuleIndex, readScenarios, selectedBy, stableIds, type IndexedScenario } from './suite-index.js';

const scenario = (over: Partial<IndexedScenario>): IndexedScenario => ({
  file: 'features/x/X1.feature',
  line: 7,
  name: '[1] something',
  ids: ['x-1'],
  rules: ['INB-01'],
  area: 'x',
  needs: [],
  tags: ['@area:x', '@INB-01', '@id:x-1'],
  rows: [],
  steps: [],
  ...over,
});

test('the shipped suite covers its rule index exactly', () => {
  assert.deepEqual(lintSuite(readRuleIndex('rules/index.md'), readScenarios('features')), []);
});

test('an indexed rule without a scenario is reported', () => {
  assert.deepEqual(lintSuite(['INB-01', 'INB-02'], [scenario({})]), ['rules/index.md: INB-02 has no scenario']);
});

test('a scenario naming an unknown rule is reported with its place', () => {
  const steps = [{ kind: 'Outcome' as const, line: 9, text: 'x', named: ['INB-01', 'ZZZ-99'] }];
  assert.deepEqual(lintSuite(['INB-01'], [scenario({ rules: ['INB-01', 'ZZZ-99'], steps })]), [
    'features/x/X1.feature:7: @ZZZ-99 is not in the rule index',
  ]);
});

test('with several rules, each check names the rules it checks, and each rule is checked', () => {
  const steps = [
    { kind: 'Context' as const, line: 8, text: 'x' },
    { kind: 'Outcome' as const, line: 9, text: 'x', named: ['INB-01'] },
    { kind: 'Outcome' as const, line: 10, text: 'x' },
  ];
  assert.deepEqual(lintSuite(['INB-01', 'INB-02'], [scenario({ rules: ['INB-01', 'INB-02'], steps })]), [
    'features/x/X1.feature:10: the check names no rule, and its scenario has several (INB-01 INB-02): put "# checks: <rule>" above it',
    'features/x/X1.feature:7: no step checks @INB-02: put "# checks: INB-02" above one of its checks',
  ]);
});

test('the steps of a feature are read with their kind and the rules a comment above names, docstrings aside', () => {
  const [read] = readScenarios('features/tools').filter((s) => s.ids[0] === 'too-files-restart-1');
  const named = read!.steps.filter((step) => step.named).map((step) => step.named!.join(' '));
  assert.deepEqual(named.at(-1), 'TOO-05 TLS-01');
  assert.ok(read!.steps.every((step) => step.kind !== 'Unknown'));
});

test('scenario IDs must be present and unique', () => {
  const problems = lintSuite(['INB-01'], [scenario({}), scenario({ line: 12 }), scenario({ line: 20, ids: [] })]);
  assert.deepEqual(problems, [
    'features/x/X1.feature:12: @id:x-1 is already used at features/x/X1.feature:7',
    'features/x/X1.feature:20: a scenario needs exactly one @id: tag (has 0)',
  ]);
});

test('a @needs: tag must name an optional capability', () => {
  const problems = lintSuite(['INB-01'], [scenario({ needs: ['pty', 'telepathy'] })]);
  assert.equal(problems.length, 1);
  assert.match(
    problems[0]!,
    /^features\/x\/X1\.feature:7: @needs:telepathy names no optional capability \(kit-tools, /,
  );
});

test('every example row of the shipped suite has its own stable ID', () => {
  const ids = readScenarios('features').flatMap(stableIds);
  const outlines = readScenarios('features').filter((s) => s.rows.length > 0);
  assert.ok(outlines.length >= 6, `outlines found: ${outlines.length}`);
  assert.equal(new Set(ids).size, ids.length);
  for (const outline of outlines)
    assert.equal(new Set(stableIds(outline)).size, outline.rows.length + 1, `${outline.file}:${outline.line}`);
});

test("an example row's ID is its outline's and its first cell, read from every Examples table", () => {
  const dir = mkdtempSync(join(tmpdir(), 'kit-index-'));
  try {
    writeFileSync(
      join(dir, 'O.feature'),
      [
        '@area:x',
        'Feature: x',
        '  @INB-01 @id:o-1',
        '  Scenario Outline: o (<case>)',
        '    Given a table',
        '      | not | a row |',
        '    Examples:',
        '      | case        | n |',
        '      | Both small  | 1 |',
        '',
        '      # a comment in a table',
        '      | a \\| b     | 2 |',
        '    @slow',
        '    Examples: more',
        '      | case | n |',
        '      | 401  | 3 |',
      ].join('\n'),
    );
    const [outline] = readScenarios(dir);
    assert.deepEqual(stableIds(outline!), ['o-1', 'o-1/both-small', 'o-1/a-b', 'o-1/401']);
    // A tag expression sees the feature's, the outline's and the Examples' tags, as Cucumber does.
    assert.equal(selectedBy('@area:x and @INB-01 and @slow', outline!), true);
    assert.equal(selectedBy('@slow and not @INB-01', outline!), false);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('two example rows of an outline whose first cells give one ID are reported, and so is a row without one', () => {
  const rows = [
    { firstCell: 'after a crash', line: 10, tags: [] },
    { firstCell: 'After a crash!', line: 11, tags: [] },
    { firstCell: 'é', line: 12, tags: [] },
  ];
  assert.deepEqual(lintSuite(['INB-01'], [scenario({ rows })]), [
    "features/x/X1.feature:11: the row's ID x-1/after-a-crash is already the ID of the row at line 10: make the first cells differ",
    "features/x/X1.feature:12: the row's first cell names it in its ID (x-1/<first cell>): give it letters or digits",
  ]);
});

test("a step observing another rule's fact names the rule it checks; the rule's own scenarios need not", () => {
  const steps = [
    { kind: 'Outcome' as const, line: 9, text: 'the session has 1 completed compaction' },
    { kind: 'Outcome' as const, line: 10, text: 'the session has 1 completed compaction', named: ['CMP-01'] },
    {
      kind: 'Outcome' as const,
      line: 11,
      text: 'request 2 asked for a summary rather than the turn "two", or nothing here is judged',
    },
  ];
  assert.deepEqual(
    lintSuite(
      ['CMP-01', 'CMP-04'],
      [scenario({ rules: ['CMP-04'], steps }), scenario({ line: 30, ids: ['x-2'], rules: ['CMP-01'], steps })],
    ).filter((p) => !p.includes('has no scenario')),
    [
      'features/x/X1.feature:9: the step observes what CMP-01 is about, in a scenario of CMP-04: put "# checks: CMP-01" above it where it is a precondition, or "# checks: <rule>" naming the scenario\'s rule whose clause it is',
    ],
  );
});
