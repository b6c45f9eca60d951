import type { KnownFailures } from '../baseline/known-failures.js';
import type { ScenarioResult } from './scenario-results.js';
import { coverageOf, coverageShortfall, type Coverage } from './coverage.js';

/**
 * A scenario's outcome once a baseline is taken into account. Without a baseline every failure
 * is unexpected. An expected failure that passes is an error too: its entry is stale.
 */
export type Outcome = 'passed' | 'not-applicable' | 'expected-fail' | 'unexpected-pass' | 'unexpected-fail';

/** One stable ID's verdict; an outline's rows share their scenario's ID and are judged together. */
export interface ScenarioVerdict {
  id: string;
  outcome: Outcome;
  /** The first failing row, or the first row. */
  result: ScenarioResult;
  /** Why the baseline accepts its failure, when it lists it. */
  reason?: string;
}

export interface Verdict {
  /** The run passes: no unexpected failure, no stale baseline entry, and enough rules with a verdict. */
  passed: boolean;
  scenarios: ScenarioVerdict[];
  coverage: Coverage;
  /** Why too few rules got a verdict for the run to pass. */
  shortfall?: string;
  /** The baseline file, when there was one. */
  baseline?: string;
}

/** `minVerdicts`: the share of selected rules, in percent, that must get a verdict. */
export function judge(results: ScenarioResult[], baseline?: KnownFailures, minVerdicts = 0): Verdict {
  const byId = new Map<string, ScenarioResult[]>();
  for (const result of results) byId.set(result.id, [...(byId.get(result.id) ?? []), result]);
  const scenarios = [...byId].map(([id, rows]): ScenarioVerdict => {
    const failed = rows.find((row) => row.status === 'failed');
    const reason = baseline?.reasons.get(id);
    const outcome = outcomeOf(rows, reason !== undefined);
    return { id, outcome, result: failed ?? rows[0]!, ...(reason === undefined ? {} : { reason }) };
  });
  const coverage = coverageOf(results);
  const shortfall = coverageShortfall(coverage, minVerdicts);
  return {
    passed:
      shortfall === undefined &&
      scenarios.every((s) => s.outcome !== 'unexpected-fail' && s.outcome !== 'unexpected-pass'),
    scenarios,
    coverage,
    ...(shortfall === undefined ? {} : { shortfall }),
    ...(baseline ? { baseline: baseline.file } : {}),
  };
}

function outcomeOf(rows: ScenarioResult[], listed: boolean): Outcome {
  if (rows.some((row) => row.status === 'failed')) return listed ? 'expected-fail' : 'unexpected-fail';
  if (!rows.some((row) => row.status === 'passed')) return 'not-applicable';
  return listed ? 'unexpected-pass' : 'passed';
}

export function withOutcome(verdict: Verdict, outcome: Outcome): ScenarioVerdict[] {
  return verdict.scenarios.filter((scenario) => scenario.outcome === outcome);
}
