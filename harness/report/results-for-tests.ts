import type { KnownFailures } from '../baseline/known-failures.js';
import type { ScenarioResult } from './scenario-results.js';

/** A scenario's result as the report modules' tests need one: an inbox scenario of its rules. */
export function scenarioResult(
  id: string,
  status: ScenarioResult['status'],
  rules: string[] = ['INB-01'],
  extra: Partial<ScenarioResult> = {},
): ScenarioResult {
  return { id, name: `[1] ${id}`, uri: 'features/inbox/X1.feature', line: 3, rules, area: 'inbox', status, ...extra };
}

/** A baseline listing `ids` as known deviations. */
export function baselineOf(...ids: string[]): KnownFailures {
  return {
    file: 'known.yaml',
    entries: new Map(ids.map((id) => [id, { class: 'deviation' as const, reason: `${id} is known` }])),
  };
}
