import { listedUnder, type KnownFailure } from '../baseline/known-failures.js';
import { clipped } from '../projection/render.js';
import { coverageOf, emulatedSubjects, outcomeFor, rulesOf } from './coverage.js';
import type { Outcome } from './outcome.js';
import type { ScenarioResult } from './scenario-results.js';
import { failureLines } from './summary.js';
import type { Clause } from '../suite/clauses.js';
import { clauseShare, scenarioShare, type Share } from './judged-share.js';

/** A rule's outcome on one runtime, the one line that says why, and how much of the rule it rests on. */
export interface RuleStanding {
  outcome: Outcome;
  /** The baseline's reason for a failure, why no verdict, or the reading the runtime took. */
  note?: string;
  /** Of the rule's scenarios, how many gave it a verdict. */
  scenarios?: Share;
  /** Of the rule's clauses (rules/index.md), how many a scenario that gave it a verdict checks. */
  clauses?: Share;
}

/** Every rule's standing in a run's results, its note taken from what the run and the baseline say. */
export function ruleStandings(
  scenarios: readonly ScenarioResult[],
  known: ReadonlyMap<string, KnownFailure>,
  clauses: readonly Clause[] = [],
): Record<string, RuleStanding> {
  const coverage = coverageOf([...scenarios]);
  return Object.fromEntries(
    Object.entries(coverage.outcomes).map(([rule, outcome]) => {
      const deciding = scenarios.filter((s) => rulesOf(s).includes(rule) && outcomeFor(s, rule) === outcome);
      const note = noteOf(rule, outcome, deciding, known, coverage.withoutVerdict[rule] ?? []);
      const own = clauses.filter((clause) => clause.rule === rule);
      const standing: RuleStanding = {
        outcome,
        ...(note ? { note: clipped(note, 600) } : {}),
        scenarios: scenarioShare(scenarios, rule),
        ...(own.length > 0 ? { clauses: clauseShare(scenarios, own) } : {}),
      };
      return [rule, standing];
    }),
  );
}

function noteOf(
  rule: string,
  outcome: Outcome,
  deciding: readonly ScenarioResult[],
  known: ReadonlyMap<string, KnownFailure>,
  withoutVerdict: readonly string[],
): string | undefined {
  const [first] = deciding;
  switch (outcome) {
    case 'failed':
    case 'not implemented': {
      // A rule the runtime lacks the subject of says so, whatever another rule's baseline entry says of its scenarios.
      const absent = deciding.flatMap((s) => emulatedSubjects(s, rule)).filter((subject) => subject.absent);
      if (outcome === 'not implemented' && absent.length > 0)
        return `the runtime has no interface for ${[...new Set(absent.map(({ name }) => `\`${name}\``))].join(', ')}, which ${rule} is about: the adapter's emulation of it stands in for other rules`;
      const reason = deciding.map((s) => listedUnder(known, s)?.entry.reason).find(Boolean);
      if (reason) return reason.trim().replace(/\s*\n\s*/g, ' ');
      return first && [first.step, failureLines(first.message)[0]].filter(Boolean).join(': ');
    }
    case 'errored':
      return first && failureLines(first.message)[0];
    case 'passed': {
      const readings = [...new Set(deciding.flatMap((s) => s.readings ?? []))];
      return readings.length ? `reading taken: ${readings.join('; ')}` : undefined;
    }
    default:
      return withoutVerdict.length ? withoutVerdict.join('; ') : undefined;
  }
}
