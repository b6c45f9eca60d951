import { emulatedEntry, failedRules, REASONS_SEPARATOR, type ScenarioResult } from './scenario-results.js';
import { failureLines, isVerdict, ruleOutcome, type Outcome } from './outcome.js';
import { kitPath } from '../kit-root.js';
import { covers, readRuleSubjects, type RuleSubject } from '../suite/rule-subjects.js';
import { readClauses, resultNamed, type Clause } from '../suite/clauses.js';

/**
 * Each selected rule's outcome, grouped. A rule with a verdict passed, failed or is not
 * implemented; a rule without one says why: not applicable (a profile, capability or reading the
 * runtime does not declare), errored (the runtime could not be driven through it) or not judged
 * (its checks never saw real data).
 */
export interface Coverage {
  /** The selected rules. */
  rules: number;
  /** Rules that passed or failed, not implemented ones included. */
  withVerdict: number;
  /** Every rule's outcome, the one value every report prints. */
  outcomes: Record<string, Outcome>;
  passed: string[];
  failed: string[];
  notImplemented: string[];
  errored: string[];
  notJudged: string[];
  /** Each rule without a verdict, with the reasons its scenarios gave. */
  withoutVerdict: Record<string, string[]>;
}

/** The rules a scenario speaks to: its own, a precondition's its failure was charged to, and a rule it is not tagged with whose named checks all held. */
export function rulesOf(result: ScenarioResult): string[] {
  return [...new Set([...result.rules, ...failedRules(result), ...(result.held ?? [])])];
}

/**
 * What a scenario says of one of its rules: a failure is its charged rule's alone; the scenario's
 * other rules passed where every check of theirs ran and held, and were not judged by it otherwise.
 * A pass or failure that rests on the adapter's emulation of what the rule is about is no verdict,
 * or not implemented where the runtime has no interface for it at all; a command the runtime
 * refused stays not implemented for a rule about it, and leaves a rule about another part of it
 * (a receipt shown by an admission without a run) not judged; one refused only to set up or to look
 * leaves the scenario no verdict, but a rule about it not implemented.
 */
export function outcomeFor(result: ScenarioResult, rule: string): Outcome {
  const outcome = checkedOutcome(result, rule);
  if (outcome === 'not implemented') return refusedBeside(result, rule) ? 'not judged' : outcome;
  if (outcome === 'not judged' && refusedAbout(result, rule)) return 'not implemented';
  if (outcome !== 'passed' && outcome !== 'failed') return outcome;
  const emulated = emulatedSubjects(result, rule);
  if (emulated.length === 0) return outcome;
  return emulated.some((subject) => subject.absent) ? 'not implemented' : 'not judged';
}

function checkedOutcome(result: ScenarioResult, rule: string): Outcome {
  if (result.held?.includes(rule)) return 'passed';
  if (result.status !== 'failed' || !result.charged) return result.status;
  return failedRules(result).includes(rule) ? 'failed' : 'not judged';
}

let subjects: Map<string, RuleSubject[]> | undefined;
let clauses: Clause[] | undefined;

/**
 * The commands a rule is about or rests on (rules/index.md) that the scenario reached through the
 * adapter's emulation: what its checks saw was the adapter's doing, so the scenario judges the rule
 * neither way. `absent`: the runtime lacks a command the rule is about (one it only rests on never is).
 */
export function emulatedSubjects(result: ScenarioResult, rule: string): { name: string; absent: boolean }[] {
  subjects ??= readRuleSubjects(kitPath('rules', 'index.md')).byRule;
  clauses ??= readClauses(kitPath('rules', 'index.md')).clauses;
  // A scenario that checks only clauses about a part of a command (the reserve) rests on that part;
  // beside a clause of the rule's own, only those clauses go unjudged (`restsOnEmulation`).
  const checked = clauses.filter(
    (clause) => clause.rule === rule && clause.scenarios.some((id) => resultNamed(id, result)),
  );
  const ofClauses = checked.every((clause) => clause.about.length > 0)
    ? checked.flatMap((clause) => clause.about.map((name) => ({ name, setUp: false })))
    : [];
  return emulatedAmong(result, [...(subjects.get(rule) ?? []), ...ofClauses]);
}

function emulatedAmong(result: ScenarioResult, named: readonly RuleSubject[]): { name: string; absent: boolean }[] {
  const used = (result.emulated ?? []).map(emulatedEntry);
  return named.flatMap(({ name, setUp }) => {
    const by = used.filter((entry) => covers(entry.name, name));
    return by.length > 0 ? [{ name, absent: !setUp && by.some((entry) => entry.absent) }] : [];
  });
}

/** Whether the scenario reached a part a clause is about through the adapter's emulation: it judges nothing of that clause. */
export function restsOnEmulation(result: ScenarioResult, clause: Clause): boolean {
  return (
    emulatedAmong(
      result,
      clause.about.map((name) => ({ name, setUp: false })),
    ).length > 0
  );
}

/**
 * The verdicts (passed, failed, not implemented) the scenarios that check a clause gave its rule,
 * on the runtime's own doing: a scenario that reached the clause's part through the adapter's
 * emulation gives none.
 */
export function clauseVerdicts(results: readonly ScenarioResult[], clause: Clause): Outcome[] {
  return results
    .filter((result) => clause.scenarios.some((id) => resultNamed(id, result)) && !restsOnEmulation(result, clause))
    .map((result) => outcomeFor(result, clause.rule))
    .filter(isVerdict);
}

/** Whether a clause's verdicts pass or fail it, not only say the runtime lacks it. */
export const passedOrFailed = (verdicts: readonly Outcome[]) =>
  verdicts.some((outcome) => outcome !== 'not implemented');

/**
 * What the runtime refused, when it is none of what the rule is about (rules/index.md, About): the
 * scenario needed it only to reach the rule's state, as an admission without a run shows a receipt,
 * so the refusal leaves the rule not judged, never not implemented. A rule without an About line
 * is about whatever its scenarios' actions do.
 */
function refusedBeside(result: ScenarioResult, rule: string): string[] | undefined {
  subjects ??= readRuleSubjects(kitPath('rules', 'index.md')).byRule;
  const about = (subjects.get(rule) ?? []).filter((subject) => !subject.setUp);
  const refused = result.refused ?? [];
  if (refused.length === 0 || about.length === 0) return undefined;
  return refused.some((name) => about.some((subject) => covers(name, subject.name))) ? undefined : refused;
}

/**
 * Whether the runtime refused, to set up or to look, what the rule is about (an `epoch` look for a
 * rule about what the epoch keeps): the refusal is the answer, the rule not implemented.
 */
function refusedAbout(result: ScenarioResult, rule: string): boolean {
  subjects ??= readRuleSubjects(kitPath('rules', 'index.md')).byRule;
  const about = (subjects.get(rule) ?? []).filter((subject) => !subject.setUp);
  return (result.refusedToReach ?? []).some((name) => about.some((subject) => covers(name, subject.name)));
}

/**
 * Each rule's outcome over its scenarios, in rule order; a pass resting on too few of its clauses
 * is no verdict, and says so (`thin`).
 */
function ruleStandings(results: readonly ScenarioResult[]): Map<string, { outcome: Outcome; thin?: string }> {
  const byRule = new Map<string, Outcome[]>();
  for (const result of results) {
    for (const rule of rulesOf(result)) byRule.set(rule, [...(byRule.get(rule) ?? []), outcomeFor(result, rule)]);
  }
  return new Map(
    [...byRule]
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([rule, outcomes]) => {
        const outcome = ruleOutcome(outcomes);
        return [rule, (outcome === 'passed' && thinPass(results, rule)) || { outcome }];
      }),
  );
}

/** Each rule's outcome over its scenarios, in rule order. */
export function ruleOutcomes(results: readonly ScenarioResult[]): Map<string, Outcome> {
  return new Map([...ruleStandings(results)].map(([rule, { outcome }]) => [rule, outcome]));
}

/**
 * A pass that rests on fewer than half of the rule's clauses this runtime could be judged on: the
 * clauses whose scenarios all went without a pass or a failure (not implemented, wanting a
 * capability, or running and seeing nothing real) are more than those judged. Clauses of a
 * profile, dialect or reading the runtime does not take are not its to be judged on. Where the
 * clauses not implemented alone outnumber the judged ones, the runtime lacks most of what the rule
 * is about: the rule is not implemented; otherwise it is not judged.
 */
function thinPass(results: readonly ScenarioResult[], rule: string): { outcome: Outcome; thin: string } | undefined {
  clauses ??= readClauses(kitPath('rules', 'index.md')).clauses;
  let judged = 0;
  let notImplemented = 0;
  let unjudged = 0;
  for (const clause of clauses.filter((c) => c.rule === rule && c.scenarios.length > 0)) {
    const verdicts = clauseVerdicts(results, clause);
    if (passedOrFailed(verdicts)) judged += 1;
    else if (verdicts.length > 0) notImplemented += 1;
    else if (
      results.some(
        (result) =>
          clause.scenarios.some((id) => resultNamed(id, result)) &&
          (outcomeFor(result, rule) !== 'not applicable' || /needs capability/.test(result.reason ?? '')),
      )
    )
      unjudged += 1;
  }
  if (notImplemented + unjudged <= judged) return undefined;
  const of = `passed on ${judged} of the ${judged + notImplemented + unjudged} clauses it could be judged on here`;
  return notImplemented > judged
    ? { outcome: 'not implemented', thin: `not implemented: ${of}, ${notImplemented} of them not implemented` }
    : {
        outcome: 'not judged',
        thin: `not judged: ${of}, the others' scenarios without a verdict${notImplemented ? ` (${notImplemented} not implemented)` : ''}`,
      };
}

/** `only`: the rules a run was asked for (`--rule`); another rule its scenarios speak to gets no outcome from part of its scenarios. */
export function coverageOf(results: readonly ScenarioResult[], only?: readonly string[]): Coverage {
  const coverage: Coverage = {
    rules: 0,
    withVerdict: 0,
    outcomes: {},
    passed: [],
    failed: [],
    notImplemented: [],
    errored: [],
    notJudged: [],
    withoutVerdict: {},
  };
  const lists: Partial<Record<Outcome, string[]>> = {
    passed: coverage.passed,
    failed: coverage.failed,
    'not implemented': coverage.notImplemented,
    errored: coverage.errored,
    'not judged': coverage.notJudged,
  };
  for (const [rule, { outcome, thin }] of ruleStandings(results)) {
    if (only && !only.includes(rule)) continue;
    coverage.rules += 1;
    coverage.outcomes[rule] = outcome;
    lists[outcome]?.push(rule);
    if (isVerdict(outcome)) {
      coverage.withVerdict += 1;
      continue;
    }
    const scenarios = results.filter(
      (result) => rulesOf(result).includes(rule) && outcomeFor(result, rule) === outcome,
    );
    coverage.withoutVerdict[rule] = thin
      ? [thin]
      : [...new Set(scenarios.flatMap((result) => reasonsOf(result, rule)))];
  }
  return coverage;
}

/** Why a scenario gave a rule no verdict, in the words the summary groups rules by (first lines: no stack). */
function reasonsOf(result: ScenarioResult, rule: string): string[] {
  const emulated = emulatedSubjects(result, rule);
  if (emulated.length > 0 && ['passed', 'failed'].includes(checkedOutcome(result, rule)))
    return [
      `not judged: rests on the adapter's emulation of ${emulated.map(({ name }) => `\`${name}\``).join(', ')}, which ${rule} is about`,
    ];
  const refused = result.status === 'not implemented' && refusedBeside(result, rule);
  if (refused)
    return [
      `not judged: the runtime lacks ${refused.map((name) => `\`${name}\``).join(', ')}, which ${rule}'s scenario needs only to reach what the rule is about`,
    ];
  if (result.status === 'errored')
    return [`errored: ${sharedWording(failureLines(result.message)[0]!.trim()) || 'no message'}`];
  if (result.status === 'failed')
    return [
      `not judged: ${firstLine(result.reason) || `a check of ${result.charged?.join(' ')} failed before this rule's checks ran or held`}`,
    ];
  if (result.status === 'not judged') return [`not judged: ${firstLine(result.reason) || 'no reason given'}`];
  return (result.reason ?? 'no reason given').split(REASONS_SEPARATOR);
}

/**
 * An error line without what differs from scenario to scenario (a command's arguments, a path in
 * the scenario's own directory), so that one cause gives one line however many scenarios it ended.
 */
export function sharedWording(line: string): string {
  return line.replace(/\{.*\}/, '{…}').replace(/\S*\/kit-[\w.-]+-\d+-\w{6}\S*/g, '<scenario directory>');
}

function firstLine(text: string | undefined): string {
  return (text ?? '').split('\n')[0]!.trim();
}

/**
 * The share of rules with a verdict in percent, rounded down to a tenth (2 of 3 is 66.6, and 89.99
 * does not pass for 90): the number shown is the number `--min-verdicts` is compared with.
 */
export function verdictPercent(coverage: Coverage): number {
  return coverage.rules === 0 ? 100 : Math.floor((coverage.withVerdict * 1000) / coverage.rules) / 10;
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
