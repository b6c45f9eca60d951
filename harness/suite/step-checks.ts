/**
 * Which rules each step of a scenario checks, declared once: a comment right above the step names
 * them (`# checks: INB-07`, or `# checks: MCS-02 MCS-05` where one observation is a clause of
 * both), else an outcome step (a Then, or an And or But after one) of a scenario with one rule
 * checks that rule. A failure charges the rules its step checks and no other; the scenario's
 * other rules are judged by their own checks.
 */

import type { GherkinDocument } from '@cucumber/messages';

/** A rule tag of a scenario: `@INB-07`. */
export const RULE_TAG = /^@([A-Z]{3}-\d{2})$/;

/** A comment line right above a step naming the rules the step checks: `# checks: INB-07`. */
export const CHECKS_COMMENT = /^\s*#\s*checks:\s*([A-Z]{3}-\d{2}(?:\s+[A-Z]{3}-\d{2})*)\s*$/;

/** The rules a `# checks:` comment names, if the line is one. */
export function rulesNamed(comment: string): string[] | undefined {
  return CHECKS_COMMENT.exec(comment)?.[1]?.split(/\s+/);
}

/** The rules each step of a document (its Backgrounds' too) names in a comment right above it, by the step's ID. */
export function checksByStep(document: GherkinDocument): Map<string, string[]> {
  const byLine = new Map<number, string[]>();
  for (const comment of document.comments) {
    const rules = rulesNamed(comment.text);
    if (rules) byLine.set(comment.location.line + 1, rules);
  }
  const byStep = new Map<string, string[]>();
  for (const child of document.feature?.children ?? []) {
    for (const step of [...(child.background?.steps ?? []), ...(child.scenario?.steps ?? [])]) {
      const rules = byLine.get(step.location.line);
      if (rules) byStep.set(step.id, rules);
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
}

/**
 * The rules a step checks: the ones it names, else the scenario's only rule for an outcome step or
 * for the action under test (a `When` the runtime fails, such as a permission it never asks for),
 * else none.
 */
export function rulesChecked(step: CheckingStep, scenarioRules: readonly string[]): readonly string[] {
  if (step.named) return step.named;
  return (step.kind === 'Outcome' || step.kind === 'Action') && scenarioRules.length === 1 ? scenarioRules : [];
}

/**
 * Whether a scenario runs on after the check at `index` failed: every step after it is a check,
 * and one of them checks a rule the failed one does not, whose verdict would otherwise be lost.
 * Later checks read what the runtime already did, so running them changes nothing the failure showed.
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
    later.some((next) => rulesChecked(next, scenarioRules).some((rule) => !failed.includes(rule)))
  );
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
