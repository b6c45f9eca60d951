/**
 * Which rule each step of a scenario checks, declared once: a comment right above the step names
 * it (`# checks: INB-07`), else an outcome step (a Then, or an And or But after one) of a scenario
 * with one rule checks that rule. A failure charges the rule its step checks and no other; the
 * scenario's other rules are judged by their own checks.
 */

/** A comment line right above a step naming the rule the step checks: `# checks: INB-07`. */
export const CHECKS_COMMENT = /^\s*#\s*checks:\s*([A-Z]{3}-\d{2})\s*$/;

/** Cucumber's kinds of step: a Given sets up, a When acts, a Then checks. */
export type StepKind = 'Context' | 'Action' | 'Outcome' | 'Unknown';

export interface CheckingStep {
  kind: StepKind;
  /** The rule the step's comment names. */
  named?: string;
}

/** The rule a step checks, if it checks one: the one it names, else the scenario's only rule for an outcome step. */
export function ruleChecked(step: CheckingStep, scenarioRules: readonly string[]): string | undefined {
  if (step.named) return step.named;
  return step.kind === 'Outcome' && scenarioRules.length === 1 ? scenarioRules[0] : undefined;
}

/**
 * Whether a scenario runs on after the check at `index` failed: every step after it is a check,
 * and one of them checks another rule, whose verdict would otherwise be lost. Later checks read
 * what the runtime already did, so running them changes nothing the failure showed.
 */
export function runsOnAfterFailure(
  steps: readonly CheckingStep[],
  index: number,
  scenarioRules: readonly string[],
): boolean {
  const step = steps[index];
  if (step?.kind !== 'Outcome') return false;
  const failedRule = ruleChecked(step, scenarioRules);
  const later = steps.slice(index + 1);
  return (
    later.every((next) => next.kind === 'Outcome') &&
    later.some((next) => ruleChecked(next, scenarioRules) !== failedRule)
  );
}

/**
 * Where and why a scenario's checks do not each say which rule they check, if they do not: with several
 * rules, every outcome step names its rule, and every rule is named by one of them.
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
  const named = new Set(steps.map((step) => step.named));
  for (const rule of scenarioRules) {
    if (!named.has(rule))
      problems.push({ problem: `no step checks @${rule}: put "# checks: ${rule}" above one of its checks` });
  }
  return problems;
}
