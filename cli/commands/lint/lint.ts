import { kitPath } from '../../../harness/kit-root.js';
import { lintSuite, readRuleIndex, readScenarios, type IndexedScenario } from '../../../harness/suite/suite-index.js';
import { KitInputError } from '../../../harness/input-error.js';

/** Refuses to run a suite whose tags and rule index disagree: its verdicts would mislead. */
export function lintKit(): IndexedScenario[] {
  const scenarios = readScenarios(kitPath('features'));
  const problems = lintSuite(readRuleIndex(kitPath('rules', 'index.md')), scenarios);
  if (problems.length > 0)
    throw new KitInputError('the suite', `${problems.length} problem(s):\n  ${problems.join('\n  ')}`);
  return scenarios;
}
