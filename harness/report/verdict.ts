import type { KnownFailures } from '../baseline/known-failures.js';
import type { ScenarioResult } from './scenario-results.js';

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
  /** The run passes: no unexpected failure and no stale baseline entry. */
  passed: boolean;
  scenarios: ScenarioVerdict[];
  /** The baseline file, when there was one. */
  baseline?: string;
}

export function judge(results: ScenarioResult[], baseline?: KnownFailures): Verdict {
  const byId = new Map<string, ScenarioResult[]>();
  for (const result of results) byId.set(result.id, [...(byId.get(result.id) ?? []), result]);
  const scenarios = [...byId].map(([id, rows]): ScenarioVerdict => {
    const failed = rows.find((row) => row.status === 'failed');
    const reason = baseline?.reasons.get(id);
    const outcome = outcomeOf(rows, reason !== undefined);
    return { id, outcome, result: failed ?? rows[0]!, ...(reason === undefined ? {} : { reason }) };
  });
  return {
    passed: scenarios.every((s) => s.outcome !== 'unexpected-fail' && s.outcome !== 'unexpected-pass'),
    scenarios,
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
