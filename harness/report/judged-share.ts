import type { Clause } from '../suite/clauses.js';
import { clauseVerdicts, outcomeFor, passedOrFailed, rulesOf } from './coverage.js';
import { isVerdict, type Outcome } from './outcome.js';
import type { ScenarioResult } from './scenario-results.js';

/** How much of a rule a run judged: of its scenarios (or clauses), how many gave it a verdict. */
export interface Share {
  judged: number;
  of: number;
  /** Clauses whose only verdict is "not implemented", besides those judged (passed or failed). */
  notImplemented?: number;
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
  return clauseVerdicts(results, clause).length > 0;
}

/**
 * The rule's clauses, and how many of them a scenario that passed or failed the rule checks; apart
 * from those, how many only a scenario not implemented does: a clause the runtime lacks is not one
 * it was judged on, so a pass resting on the others says so.
 */
export function clauseShare(results: readonly ScenarioResult[], clauses: readonly Clause[]): Share {
  const verdicts = clauses.map((clause) => clauseVerdicts(results, clause));
  const notImplemented = verdicts.filter((outcomes) => outcomes.length > 0 && !passedOrFailed(outcomes)).length;
  return {
    judged: verdicts.filter(passedOrFailed).length,
    of: clauses.length,
    ...(notImplemented > 0 ? { notImplemented } : {}),
  };
}

/** "1 of 4 scenarios, 1 of 3 clauses judged, 1 not implemented": how much a rule's outcome rests on. */
export function shareText(scenarios: Share, clauses?: Share): string {
  const parts = [`${scenarios.judged} of ${scenarios.of} scenarios`];
  if (clauses && clauses.of > 0) parts.push(`${clauses.judged} of ${clauses.of} clauses`);
  const notImplemented = clauses?.notImplemented ? `, ${clauses.notImplemented} not implemented` : '';
  return `${parts.join(', ')} judged${notImplemented}`;
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
