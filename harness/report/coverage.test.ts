import { test } from 'node:test';
import assert from 'node:assert/strict';
import { coverageOf } from './coverage.js';
import { scenarioResult } from './results-for-tests.js';
import type { ScenarioResult } from './scenario-results.js';

// TLS-04's clauses in rules/index.md: (a) and (b) `tls-patch-external-1`, (c) `tls-patch-external-2`,
// (d) `tls-patch-external-3` and `tls-patch-hunks-1`, (e) `tls-patch-4`.
const tls04 = (statuses: Record<string, ScenarioResult['status']>) =>
  Object.entries(statuses).map(([id, status]) => scenarioResult(id, status, ['TLS-04']));

test('a pass on the clauses a runtime was judged on stands when they are at least half', () => {
  const coverage = coverageOf(
    tls04({ 'tls-patch-external-1': 'passed', 'tls-patch-external-2': 'not implemented', 'tls-patch-hunks-1': 'passed' }),
  );
  assert.equal(coverage.outcomes['TLS-04'], 'passed');
});

test('clauses not implemented are not judged ones: outnumbering the passes, the rule is not implemented', () => {
  const coverage = coverageOf(
    tls04({
      'tls-patch-external-1': 'not implemented',
      'tls-patch-external-2': 'not implemented',
      'tls-patch-hunks-1': 'passed',
      'tls-patch-4': 'passed',
    }),
  );
  assert.equal(coverage.outcomes['TLS-04'], 'not implemented');
});

test('clauses without a verdict outnumbering the passes leave the rule not judged, the count said', () => {
  const coverage = coverageOf(
    tls04({
      'tls-patch-external-1': 'not judged',
      'tls-patch-external-2': 'not implemented',
      'tls-patch-hunks-1': 'passed',
    }),
  );
  assert.equal(coverage.outcomes['TLS-04'], 'not judged');
  assert.deepEqual(coverage.withoutVerdict['TLS-04'], [
    "not judged: passed on 1 of the 4 clauses it could be judged on here, the others' scenarios without a verdict (1 not implemented)",
  ]);
});
