import { outcomeFor } from '../harness/report/coverage.js';
import { isFailure } from '../harness/report/outcome.js';
import type { ScenarioResult } from '../harness/report/scenario-results.js';
import { resultNamed, type Clause } from '../harness/suite/clauses.js';
import { stableIds, type IndexedScenario } from '../harness/suite/suite-index.js';
import { Profile } from '../reference/profile.js';
import { rulesBroken, type Mutant } from './mutants/index.js';

/** A clause as the clause table and the mutants write it: `INB-01 (a)`. */
export const clauseName = (clause: Pick<Clause, 'rule' | 'letter'>): string => `${clause.rule} (${clause.letter})`;

/** A rule's ID alone, where a clause would name its letter too. */
const WHOLE_RULE = /^[A-Z]+-\d+$/;

/**
 * What judges one clause a mutant names: the scenarios the clause table lists under it, or, where
 * none of them applies to the mutant's profile, every scenario of its rule (`undefined`).
 */
interface ClauseJudge {
  name: string;
  rule: string;
  scenarios: string[] | undefined;
}

export interface ClauseJudging {
  /** The scenarios to run, as a tag expression. */
  tags: string;
  clauses: ClauseJudge[];
}

/**
 * The scenarios that judge a mutant: those its clauses list, and a rule's own scenarios (with those
 * of other rules whose step names it in `# checks:`) only for a rule none of whose named clauses
 * lists a scenario the mutant's profile runs.
 */
export function clauseJudging(
  mutant: Mutant,
  table: readonly Clause[],
  suite: readonly IndexedScenario[],
): ClauseJudging {
  const byName = new Map(table.map((clause) => [clauseName(clause), clause]));
  const byId = new Map(suite.flatMap((scenario) => stableIds(scenario).map((id) => [id, scenario] as const)));
  const declared: readonly string[] = Profile.parse(mutant.profile).declared();
  const runs = (id: string) => {
    const scenario = byId.get(id);
    return scenario !== undefined && appliesTo(scenario, declared);
  };
  const judges = mutant.clauses.map((name): ClauseJudge => {
    // A set written elsewhere may name a whole rule: every scenario of the rule judges it.
    if (WHOLE_RULE.test(name)) return { name, rule: name, scenarios: [] };
    const clause = byName.get(name);
    if (!clause) throw new Error(`mutant "${mutant.name}" names ${name}, which rules/index.md does not have`);
    return { name, rule: clause.rule, scenarios: clause.scenarios.filter(runs) };
  });
  const wholeRules = rulesBroken(mutant).filter((rule) =>
    judges.every((judge) => judge.rule !== rule || judge.scenarios!.length === 0),
  );
  const clauses = judges.map((judge) => (wholeRules.includes(judge.rule) ? { ...judge, scenarios: undefined } : judge));
  // A row's ID is no tag: its outline runs, and the row's own result is the one that counts.
  const outlines = clauses.flatMap((judge) => (judge.scenarios ?? []).map((id) => byId.get(id)!.ids[0]!));
  const checking = suite.filter((scenario) =>
    scenario.steps.some((step) => step.named?.some((rule) => wholeRules.includes(rule))),
  );
  const tags = [
    ...wholeRules.map((rule) => `@${rule}`),
    ...new Set([...outlines, ...checking.flatMap((scenario) => scenario.ids)]),
  ].map((tag) => (tag.startsWith('@') ? tag : `@id:${tag}`));
  return { tags: tags.join(' or '), clauses };
}

/** Whether a scenario (or one of its rows) is for a runtime declaring these profiles. */
function appliesTo(scenario: IndexedScenario, declared: readonly string[]): boolean {
  const tagSets =
    scenario.rows.length > 0 ? scenario.rows.map((row) => [...scenario.tags, ...row.tags]) : [scenario.tags];
  return tagSets.some((tags) => {
    const profiles = tags.filter((tag) => tag.startsWith('@profile:')).map((tag) => tag.slice('@profile:'.length));
    return profiles.length === 0 || profiles.some((profile) => declared.includes(profile));
  });
}

/** How each clause fared: caught by an assertion of its scenarios, stopped only by an error, or not at all. */
export interface ClauseVerdicts {
  caught: string[];
  errored: string[];
  /** Each with what it says: the scenarios of its rule that did fail, which the clause does not list. */
  missed: string[];
}

export function clauseVerdicts(judging: ClauseJudging, results: readonly ScenarioResult[]): ClauseVerdicts {
  const verdicts: ClauseVerdicts = { caught: [], errored: [], missed: [] };
  for (const { name, rule, scenarios } of judging.clauses) {
    const own = results.filter((result) => scenarios?.some((id) => resultNamed(id, result)) ?? true);
    const outcomes = own.map((result) => outcomeFor(result, rule));
    if (outcomes.includes('failed')) verdicts.caught.push(name);
    else if (outcomes.some(isFailure)) verdicts.errored.push(name);
    else {
      const elsewhere = results.filter((result) => outcomeFor(result, rule) === 'failed').map((result) => result.id);
      verdicts.missed.push(
        elsewhere.length > 0 ? `${name} (failed only ${elsewhere.join(', ')}, which it does not list)` : name,
      );
    }
  }
  return verdicts;
}

/** Whether every clause the mutant names has a failed assertion: the rest of its scenarios cannot change the verdict. */
export function everyClauseCaught(judging: ClauseJudging, results: readonly ScenarioResult[]): boolean {
  return clauseVerdicts(judging, results).caught.length === judging.clauses.length;
}
