import type { ScenarioResult } from './scenario-results.js';
import { rulesWith } from './summary.js';
import { withOutcome, type Verdict } from './verdict.js';

/** A badge in the shields.io endpoint format: https://shields.io/badges/endpoint-badge */
export interface EndpointBadge {
  schemaVersion: 1;
  label: string;
  message: string;
  color: string;
}

/**
 * Rules passed of the rules that applied. Green when everything passed, yellow when the only
 * failures are the baseline's, red when the run fails.
 */
export function conformanceBadge(results: ScenarioResult[], verdict: Verdict): EndpointBadge {
  const [passed, failed, notApplicable] = (['passed', 'failed', 'not-applicable'] as const).map((o) => rulesWith(results, o).length);
  const color = !verdict.passed ? 'red' : withOutcome(verdict, 'expected-fail').length > 0 ? 'yellow' : 'brightgreen';
  const message = `${passed}/${passed! + failed!} rules${notApplicable ? `, ${notApplicable} n/a` : ''}`;
  return { schemaVersion: 1, label: 'conformance', message, color };
}
