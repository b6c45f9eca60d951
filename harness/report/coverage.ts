import { isNotImplemented } from '../protocol/capabilities.js';
import { REASONS_SEPARATOR, type ScenarioResult } from './scenario-results.js';
import { ruleOutcomes } from './summary.js';

/**
 * How many of the selected rules got a verdict. A rule without one says why (a profile or an
 * optional capability the runtime does not declare); a rule that fails only because the runtime
 * answered `unsupported` to a required command is counted apart as not implemented.
 */
export interface Coverage {
  /** The selected rules. */
  rules: number;
  /** Rules that passed or failed, not implemented ones included. */
  withVerdict: number;
  passed: string[];
  /** Failed rules, not implemented ones excepted. */
  failed: string[];
  notImplemented: string[];
  /** Each rule without a verdict, with the reasons its scenarios gave. */
  withoutVerdict: Record<string, string[]>;
}

export function coverageOf(results: ScenarioResult[]): Coverage {
  const coverage: Coverage = {
    rules: 0,
    withVerdict: 0,
    passed: [],
    failed: [],
    notImplemented: [],
    withoutVerdict: {},
  };
  for (const [rule, outcome] of ruleOutcomes(results)) {
    coverage.rules += 1;
    const scenarios = results.filter((result) => result.rules.includes(rule));
    if (outcome === 'not-applicable') {
      coverage.withoutVerdict[rule] = [
        ...new Set(scenarios.flatMap((result) => (result.reason ?? 'no reason given').split(REASONS_SEPARATOR))),
      ];
      continue;
    }
    coverage.withVerdict += 1;
    if (outcome === 'passed') coverage.passed.push(rule);
    else if (scenarios.every((result) => result.status !== 'failed' || isNotImplemented(result.message)))
      coverage.notImplemented.push(rule);
    else coverage.failed.push(rule);
  }
  return coverage;
}

/** The share of rules with a verdict, in whole percent rounded down (89.9 % does not pass for 90 %). */
export function verdictPercent(coverage: Coverage): number {
  return coverage.rules === 0 ? 100 : Math.floor((coverage.withVerdict * 100) / coverage.rules);
}

/** Rules without a verdict grouped by reason: one line per reason reads better than one per rule. */
export function rulesByReason(coverage: Coverage): Map<string, string[]> {
  const byReason = new Map<string, string[]>();
  for (const [rule, reasons] of Object.entries(coverage.withoutVerdict)) {
    for (const reason of reasons) byReason.set(reason, [...(byReason.get(reason) ?? []), rule]);
  }
  return byReason;
}

/**
 * Why the run's coverage fails it, if it does: no selected rule got a verdict, or fewer than the
 * share `--min-verdicts` demands. A selection with no scenario at all (an empty shard) is judged elsewhere.
 */
export function coverageShortfall(coverage: Coverage, minPercent = 0): string | undefined {
  if (coverage.rules === 0) return undefined;
  if (coverage.withVerdict === 0) {
    return `no selected rule got a verdict: all ${coverage.rules} are without one (see why above); a run that checks nothing does not pass`;
  }
  const percent = verdictPercent(coverage);
  if (percent < minPercent) return `verdicts on ${percent}% of the selected rules, below --min-verdicts ${minPercent}%`;
  return undefined;
}
