import { withStanding, type Verdict } from './verdict.js';

/**
 * A run's verdict in a few words, as a CI job summary's heading: whether it passed and, since a
 * run can pass on a baseline of many failures, what passing means here. A pass that rests on
 * failures the baseline expects says so ("no change against the baseline"), and every heading
 * ends with the rules passed.
 */
export function headline(verdict: Verdict): string {
  return `${verdict.passed ? '✅' : '❌'} ${headlineWords(verdict)}`;
}

/** The headline without its mark, for a page that draws its own (an emoji needs a font that has it). */
export function headlineWords(verdict: Verdict): string {
  const { coverage } = verdict;
  const rulesPassed = `${coverage.passed.length} of ${coverage.rules} rules passed`;
  if (!verdict.passed) return `failed · ${rulesPassed}`;
  const expected = withStanding(verdict, 'expected-fail').length + withStanding(verdict, 'intermittent-pass').length;
  return verdict.baseline && expected > 0
    ? `no change against the baseline · ${rulesPassed}`
    : `passed · ${rulesPassed}`;
}
