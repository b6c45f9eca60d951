import { test } from 'node:test';
import assert from 'node:assert/strict';
import { lintSuite, readRuleIndex, readScenarios, type IndexedScenario } from './suite-index.js';

const scenario = (over: Partial<IndexedScenario>): IndexedScenario => ({
  file: 'features/x/X1.feature',
  line: 7,
  name: '[1] something',
  ids: ['x-1'],
  rules: ['INB-01'],
  area: 'x',
  needs: [],
  ...over,
});

test('the shipped suite covers its rule index exactly', () => {
  assert.deepEqual(lintSuite(readRuleIndex('rules/index.md'), readScenarios('features')), []);
});

test('an indexed rule without a scenario is reported', () => {
  assert.deepEqual(lintSuite(['INB-01', 'INB-02'], [scenario({})]), ['rules/index.md: INB-02 has no scenario']);
});

test('a scenario naming an unknown rule is reported with its place', () => {
  assert.deepEqual(lintSuite(['INB-01'], [scenario({ rules: ['INB-01', 'ZZZ-99'] })]), [
    'features/x/X1.feature:7: @ZZZ-99 is not in the rule index',
  ]);
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
