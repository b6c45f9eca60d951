/**
 * Which rules each step of a scenario checks, declared once: a comment right above the step names
 * them (`# checks: INB-07`, or `# checks: MCS-02 MCS-05` where one observation is a clause of
 * both), else an outcome step (a Then, or an And or But after one) of a scenario with one rule
 * checks that rule. A failure charges the rules its step checks and no other; a set-up or action
 * step that names no rule checks none, so its failure says only that the runtime never reached
 * what the scenario's checks are about. A check of a rule the scenario is not tagged with is a
 * precondition's: once it failed, the state the later checks read may never have come about, so
 * a later check speaks for its rule only where it says it reads what no check above it is about
 * (`# checks independently: TOO-03`). Checks of the scenario's own rules read one state apart from
 * each other: one failing leaves the others' verdicts standing.
 */

import type { GherkinDocument } from '@cucumber/messages';

/** A rule tag of a scenario: `@INB-07`. */
export const RULE_TAG = /^@([A-Z]{3}-\d{2})$/;

/**
 * A comment line right above a step naming the rules the step checks: `# checks: INB-07`, or
 * `# checks independently: TOO-03` for a check whose verdict no earlier check's failure unmakes.
 */
export const CHECKS_COMMENT = /^\s*#\s*checks(\s+independently)?:\s*([A-Z]{3}-\d{2}(?:\s+[A-Z]{3}-\d{2})*)\s*$/;

/** What a `# checks:` comment says of the step below it. */
export interface NamedChecks {
  rules: string[];
  /** The step reads what no check above it is about, so a failure above it leaves its verdict standing. */
  independent: boolean;
}

/** The rules a `# checks:` comment names, if the line is one. */
export function rulesNamed(comment: string): string[] | undefined {
  return checksNamed(comment)?.rules;
}

export function checksNamed(comment: string): NamedChecks | undefined {
  const match = CHECKS_COMMENT.exec(comment);
  return match ? { rules: match[2]!.split(/\s+/), independent: Boolean(match[1]) } : undefined;
}

/** What each step of a document (its Backgrounds' too) names in a comment right above it, by the step's ID. */
export function checksByStep(document: GherkinDocument): Map<string, NamedChecks> {
  const byLine = new Map<number, NamedChecks>();
  for (const comment of document.comments) {
    const named = checksNamed(comment.text);
    if (named) byLine.set(comment.location.line + 1, named);
  }
  const byStep = new Map<string, NamedChecks>();
  for (const child of document.feature?.children ?? []) {
    for (const step of [...(child.background?.steps ?? []), ...(child.scenario?.steps ?? [])]) {
      const named = byLine.get(step.location.line);
      if (named) byStep.set(step.id, named);
    }
  }
  return byStep;
}

/** Cucumber's kinds of step: a Given sets up, a When acts, a Then checks. */
export type StepKind = 'Context' | 'Action' | 'Outcome' | 'Unknown';

export interface CheckingStep {
  kind: StepKind;
  /** The rules the step's comment names. */
  named?: readonly string[];
  /** The comment says the step's verdict stands whatever a check above it found. */
  independent?: boolean;
}

/**
 * The rules a step checks: the ones it names, else the scenario's only rule for an outcome step,
 * else none. An action the runtime fails (a permission it never asks for) is a check only where
 * its comment names the rule: a `When` that times out waiting for a state another rule is about
 * must not charge the scenario's rule.
 */
export function rulesChecked(step: CheckingStep, scenarioRules: readonly string[]): readonly string[] {
  if (step.named) return step.named;
  return step.kind === 'Outcome' && scenarioRules.length === 1 ? scenarioRules : [];
}

/** Whether the step checks the scenario's own rules only: not a precondition's check. */
function ofOwnRules(step: CheckingStep, scenarioRules: readonly string[]): boolean {
  const rules = rulesChecked(step, scenarioRules);
  return rules.length > 0 && rules.every((rule) => scenarioRules.includes(rule));
}

/**
 * Whether the check `later` still speaks after the check `failed` failed: it says it reads what no
 * check above it is about, or both check the scenario's own rules (a precondition's failure voids
 * what follows it).
 */
function standsAfter(failed: CheckingStep, later: CheckingStep, scenarioRules: readonly string[]): boolean {
  return later.independent === true || (ofOwnRules(failed, scenarioRules) && ofOwnRules(later, scenarioRules));
}

/**
 * Whether a scenario runs on after the check at `index` failed: every step after it is a check,
 * and one of them still speaks after it (standsAfter) and checks a rule the failed one does not,
 * whose verdict would otherwise be lost. Later checks read what the runtime already did, so running
 * them changes nothing the failure showed.
 */
export function runsOnAfterFailure(
  steps: readonly CheckingStep[],
  index: number,
  scenarioRules: readonly string[],
): boolean {
  const step = steps[index];
  if (step?.kind !== 'Outcome') return false;
  const failed = rulesChecked(step, scenarioRules);
  const later = steps.slice(index + 1);
  return (
    later.every((next) => next.kind === 'Outcome') &&
    later.some(
      (next) =>
        standsAfter(step, next, scenarioRules) &&
        rulesChecked(next, scenarioRules).some((rule) => !failed.includes(rule)),
    )
  );
}

/**
 * The rules whose every check ran and held and still speaks after the scenario's first failed or
 * unjudged step (at `stopped`, or none): a check above that step read a state nothing had yet
 * gone wrong in; one below it speaks where it still stands after that step (standsAfter).
 * `ran(index)` says whether the step at that index ran and held.
 */
export function rulesStillJudged(
  steps: readonly CheckingStep[],
  stopped: number | undefined,
  scenarioRules: readonly string[],
  ran: (index: number) => boolean,
  candidates: readonly string[],
): string[] {
  const failed = stopped === undefined ? undefined : steps[stopped];
  return candidates.filter((rule) => {
    const checks = steps.flatMap((step, index) => (rulesChecked(step, scenarioRules).includes(rule) ? [index] : []));
    return (
      checks.length > 0 &&
      checks.every(
        (index) =>
          ran(index) && (failed === undefined || index < stopped! || standsAfter(failed, steps[index]!, scenarioRules)),
      )
    );
  });
}

/**
 * Where and why a scenario's checks do not each say which rule they check, if they do not: with
 * several rules, every outcome step names its rules, and every rule is named by some step.
 */
export function unattributedChecks(
  steps: readonly (CheckingStep & { line: number })[],
  scenarioRules: readonly string[],
): { line?: number; problem: string }[] {
  if (scenarioRules.length < 2) return [];
  const problems: { line?: number; problem: string }[] = steps
    .filter((step) => step.kind === 'Outcome' && !step.named)
    .map((step) => ({
      line: step.line,
      problem: `the check names no rule, and its scenario has several (${scenarioRules.join(' ')}): put "# checks: <rule>" above it`,
    }));
  const named = new Set(steps.flatMap((step) => step.named ?? []));
  for (const rule of scenarioRules) {
    if (!named.has(rule))
      problems.push({ problem: `no step checks @${rule}: put "# checks: ${rule}" above one of its checks` });
  }
  return problems;
}

/**
 * Steps that observe a fact one rule is about, whatever scenario they stand in: in a scenario of
 * another rule such a step is either that scenario's check or a precondition the named rule owns,
 * and only its author can say which, so it must name the rule it checks. Unnamed, its failure would
 * charge the scenario's rule for another rule's deviation (a runtime that never compacts failing
 * every rule about what a compaction keeps).
 */
const FACTS_OF_RULES: readonly { step: RegExp; rule: string }[] = [
  { step: /^the session has \d+ completed compactions?$/, rule: 'CMP-01' },
  // The step "..., or nothing here is judged" charges no one when it fails.
  { step: /^request \d+ asked for a summary rather than the turn "[^"]*"$/, rule: 'CMP-01' },
  { step: /^the history has the tool call "[^"]*" running$/, rule: 'RUN-01' },
  { step: /^the history has the tool call "[^"]*" settled as interrupted$/, rule: 'RUN-04' },
  { step: /^the output of call "[^"]*" is bounded\b/, rule: 'TOO-01' },
  // A restart checks that the sessions' durable history kept its prompts (steps/support/restart.ts).
  { step: /^the runtime process restarts\b|, across a restart$/, rule: 'INB-06' },
];

/** Where a scenario observes another rule's fact without saying which rule the step checks. */
export function unnamedFacts(
  steps: readonly (CheckingStep & { line: number; text: string })[],
  scenarioRules: readonly string[],
): { line: number; problem: string }[] {
  return steps.flatMap((step) => {
    const fact = FACTS_OF_RULES.find(({ step: pattern }) => pattern.test(step.text));
    if (!fact || step.named || scenarioRules.includes(fact.rule)) return [];
    return [
      {
        line: step.line,
        problem: `the step observes what ${fact.rule} is about, in a scenario of ${scenarioRules.join(' ')}: put "# checks: ${fact.rule}" above it where it is a precondition, or "# checks: <rule>" naming the scenario's rule whose clause it is`,
      },
    ];
  });
}
