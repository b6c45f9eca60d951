import { withStanding, type Verdict } from './verdict.js';

/** A badge in the shields.io endpoint format: https://shields.io/badges/endpoint-badge */
export interface EndpointBadge {
  schemaVersion: 1;
  label: string;
  message: string;
  color: string;
}

/**
 * Rules passed of the rules selected, so a rule without a verdict lowers the count, then how many
 * got none and how many are not implemented. Green when every rule passed, yellow when the run
 * passes with known failures or rules without a verdict, red when the run fails.
 */
export function conformanceBadge(verdict: Verdict): EndpointBadge {
  const { coverage } = verdict;
  const without = Object.keys(coverage.withoutVerdict).length;
  const partial =
    without > 0 ||
    withStanding(verdict, 'expected-fail').length > 0 ||
    withStanding(verdict, 'intermittent-pass').length > 0;
  const color = !verdict.passed ? 'red' : partial ? 'yellow' : 'brightgreen';
  const message =
    `${coverage.passed.length}/${coverage.rules} rules` +
    (without ? ` · ${without} n/a` : '') +
    (coverage.notImplemented.length ? ` · ${coverage.notImplemented.length} not implemented` : '') +
    (coverage.errored.length ? ` · ${coverage.errored.length} errored` : '');
  return { schemaVersion: 1, label: 'conformance', message, color };
}
