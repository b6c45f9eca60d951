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
  if (!verdict.passed) {
    // With a baseline, what broke is what the baseline does not expect: the heading names it.
    const unexpected = [...withStanding(verdict, 'unexpected-fail'), ...withStanding(verdict, 'unexpected-pass')];
    if (!verdict.baseline || unexpected.length === 0) return `failed · ${rulesPassed}`;
    const named = unexpected.slice(0, 3).map(({ id }) => id);
    const more = unexpected.length > named.length ? ` and ${unexpected.length - named.length} more` : '';
    return `failed · not as the baseline expects: ${named.join(', ')}${more} · ${rulesPassed}`;
  }
  const expected = withStanding(verdict, 'expected-fail').length + withStanding(verdict, 'intermittent-pass').length;
  return verdict.baseline && expected > 0
    ? `no change against the baseline · ${rulesPassed}`
    : `passed · ${rulesPassed}`;
}
