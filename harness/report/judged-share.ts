import type { Clause } from '../suite/clauses.js';
import { resultNamed } from '../suite/clauses.js';
import { outcomeFor, restsOnEmulation, rulesOf } from './coverage.js';
import { isVerdict, type Outcome } from './outcome.js';
import type { ScenarioResult } from './scenario-results.js';

/** How much of a rule a run judged: of its scenarios (or clauses), how many gave it a verdict. */
export interface Share {
  judged: number;
  of: number;
}

/** The rule's scenarios, and how many of them gave it a verdict (passed, failed or not implemented). */
export function scenarioShare(results: readonly ScenarioResult[], rule: string): Share {
  const scenarios = results.filter((result) => rulesOf(result).includes(rule));
  return { judged: scenarios.filter((s) => isVerdict(outcomeFor(s, rule))).length, of: scenarios.length };
}

/**
 * Whether one of the scenarios that check a clause gave its rule a verdict in this run, on the
 * runtime's own doing where the clause is about a part the adapter may emulate.
 */
export function clauseJudged(results: readonly ScenarioResult[], clause: Clause): boolean {
  return results.some(
    (result) =>
      clause.scenarios.some((id) => resultNamed(id, result)) &&
      isVerdict(outcomeFor(result, clause.rule)) &&
      !restsOnEmulation(result, clause),
  );
}

/** The rule's clauses, and how many of them a scenario that gave the rule a verdict checks. */
export function clauseShare(results: readonly ScenarioResult[], clauses: readonly Clause[]): Share {
  return { judged: clauses.filter((clause) => clauseJudged(results, clause)).length, of: clauses.length };
}

/** "1 of 4 scenarios, 2 of 3 clauses judged": how much a rule's outcome rests on. */
export function shareText(scenarios: Share, clauses?: Share): string {
  const parts = [`${scenarios.judged} of ${scenarios.of} scenarios`];
  if (clauses && clauses.of > 0) parts.push(`${clauses.judged} of ${clauses.of} clauses`);
  return `${parts.join(', ')} judged`;
}

/**
 * The passed rules fewer than half of whose scenarios gave them a verdict, each with its share:
 * a pass that rests on little reads as such beside the count of rules passed.
 */
export function minorityPasses(results: readonly ScenarioResult[], outcomes: Record<string, Outcome>): string[] {
  return Object.entries(outcomes).flatMap(([rule, outcome]) => {
    const share = scenarioShare(results, rule);
    return outcome === 'passed' && share.judged * 2 < share.of ? [`${rule} (${shareText(share)})`] : [];
  });
}
