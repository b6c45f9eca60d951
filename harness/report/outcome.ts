import type { TestStepResultStatus } from '@cucumber/messages';

/**
 * The closed outcomes of a scenario, and of a rule over its scenarios. This module alone decides
 * them; the summary, the results JSON, the markdown, the badge, the runtime's REPORT.md and the
 * README's table all print the value it gives, in these words.
 *
 * - `passed`: every check of the scenario ran on what the runtime did, and held.
 * - `failed`: a check failed: the runtime deviates from the rule, with the evidence attached.
 * - `not implemented`: the runtime answered `unsupported` to the command a scenario's action under
 *   test needs (a When step), which its profile requires; a command a scenario needs only to set up
 *   or to look (a Given or a Then) leaves the scenario not judged: the rule is not about it.
 * - `not applicable`: the scenario needs a profile, capability or reading the runtime does not declare.
 * - `errored`: the runtime or its adapter crashed, broke the protocol or stopped answering, or the
 *   suite itself is at fault (an undefined step): no verdict on the rule either way.
 * - `not judged`: the scenario ran, but the rule's own check never saw real data (the runtime
 *   never reached the state the check is about), so its pass would claim nothing.
 */
export const OUTCOMES = ['passed', 'failed', 'not implemented', 'not applicable', 'errored', 'not judged'] as const;
export type Outcome = (typeof OUTCOMES)[number];

/** Outcomes that are a verdict on the rule: a runtime is judged on it. */
const VERDICTS: readonly Outcome[] = ['passed', 'failed', 'not implemented'];

/** How the reason of a scenario the run did not start begins. */
export const NOT_RUN = 'not run:';

export function isVerdict(outcome: Outcome): boolean {
  return VERDICTS.includes(outcome);
}

/** Outcomes that fail a run unless its baseline expects them. */
export function isFailure(outcome: Outcome): boolean {
  return outcome === 'failed' || outcome === 'not implemented' || outcome === 'errored';
}

/**
 * A rule's outcome over its scenarios: the first of these that any scenario has. A failure
 * anywhere is the rule's. A rule passes when one scenario checked it on real data and none failed
 * it: a scenario not implemented or errored beside it does not unmake what the others saw, and the
 * report says how many of the rule's scenarios gave it a verdict.
 */
const RULE_PRECEDENCE: readonly Outcome[] = [
  'failed',
  'passed',
  'not implemented',
  'errored',
  'not judged',
  'not applicable',
];

export function ruleOutcome(scenarios: readonly Outcome[]): Outcome {
  return RULE_PRECEDENCE.find((outcome) => scenarios.includes(outcome)) ?? 'not applicable';
}

/**
 * A required command the runtime answered `unsupported`, or a tool a rule is about that the
 * runtime does not offer: the scenario is not implemented.
 */
export class NotImplemented extends Error {
  constructor(what: string, why: string) {
    super(`not implemented: ${what} (${why})`);
    this.name = 'NotImplemented';
  }
}

/**
 * A command the scenario needs only to set up or to look at the runtime (not its action under
 * test) that the runtime answered `unsupported`: the rule is not about that command, so the
 * scenario gives it no verdict rather than "not implemented".
 */
export class PrerequisiteUnsupported extends Error {
  constructor(what: string, why: string) {
    super(`needs ${what} to set up or to look, which the runtime does not offer (${why})`);
    this.name = 'PrerequisiteUnsupported';
  }
}

/**
 * What the runtime did leaves the rest of the scenario nothing it could tell apart: it ends there,
 * and its rules are not judged (a new baseline that still holds a file's old text, say, shows
 * neither that the runtime saw the file unreadable nor that it did not).
 */
export class NothingToJudge extends Error {
  constructor(why: string) {
    super(why);
    this.name = 'NothingToJudge';
  }
}

/**
 * The error that ends a scenario which ran on past a failed check (step-checks.ts): it carries
 * the first failure's message, and says nothing of the step it ends on.
 */
export class EarlierCheckFailed extends Error {
  constructor(first: Error) {
    super(first.message);
    this.name = 'EarlierCheckFailed';
  }
}

/** A defect of the suite itself, found while a scenario ran: the runtime gets no verdict from it. */
export class SuiteDefect extends Error {
  constructor(message: string) {
    super(`kit bug: ${message}`);
    this.name = 'SuiteDefect';
  }
}

/** The exception names that make a failed step errored: the runtime could not be driven, or the suite is at fault. */
const ERRORED_BY = new Set(['RuntimeNotDriven', SuiteDefect.name]);

/** The outcome a scenario's first non-passing step gives it, from Cucumber's status and the exception's name. */
export function stepOutcome(status: TestStepResultStatus, exceptionType: string | undefined): Outcome {
  switch (status) {
    case 'PASSED':
      return 'passed';
    case 'SKIPPED':
      return 'not applicable';
    case 'FAILED':
      if (exceptionType === NotImplemented.name) return 'not implemented';
      if (exceptionType === PrerequisiteUnsupported.name || exceptionType === NothingToJudge.name) return 'not judged';
      return ERRORED_BY.has(exceptionType ?? '') ? 'errored' : 'failed';
    default:
      // Undefined, ambiguous and pending steps are defects of the suite.
      return 'errored';
  }
}

/**
 * What a step says of its scenario beyond passing or failing, carried to the results as a log
 * line: Cucumber's messages are the one channel from a step to the report.
 */
export interface OutcomeNote {
  /** `reading`: the reading of an open choice the runtime took (`<choice>: <reading>`). */
  /** `sizes`: the scenario's sizes did not fit the runtime, so nothing it saw judges a rule, failures included. */
  /** `refused`: the names the runtime lacks that an action it refused stands for (a command, or its parts declared absent). */
  /** `refused to reach`: the same of a command refused to set up or to look, not as the action under test. */
  kind:
    | 'not applicable'
    | 'not judged'
    | 'sizes'
    | 'check failed'
    | 'emulated'
    | 'refused'
    | 'refused to reach'
    | 'means'
    | 'reading'
    | 'time';
  reason: string;
}

const NOTE_PREFIX: Record<OutcomeNote['kind'], string> = {
  'not applicable': 'not applicable: ',
  'not judged': 'not judged: ',
  sizes: 'not judged, sized wrong: ',
  'check failed': 'check failed, the scenario runs on: ',
  emulated: 'rests on emulated: ',
  refused: 'refused, absent: ',
  'refused to reach': 'refused to set up or look, absent: ',
  means: 'means: ',
  reading: 'reading: ',
  time: 'time spent: ',
};

export function noteText(note: OutcomeNote): string {
  return `${NOTE_PREFIX[note.kind]}${note.reason}`;
}

export function readNote(text: string): OutcomeNote | undefined {
  for (const [kind, prefix] of Object.entries(NOTE_PREFIX) as [OutcomeNote['kind'], string][]) {
    if (text.startsWith(prefix)) return { kind, reason: text.slice(prefix.length) };
  }
  return undefined;
}

/** The name of an error's class ahead of its message (`AssertionError: `), which says nothing to a reader. */
const ERROR_CLASS =
  /^(?:\w*Error|NotImplemented|NothingToJudge|PrerequisiteUnsupported|EarlierCheckFailed|RuntimeNotDriven|RuntimeEnded|RuntimeTimeout|AwaitedStateNotReached|SuiteDefect|AdapterFailed|ProtocolViolation): /;

/** A failure message without the kit's own stack frames and error class names, which say nothing about the runtime. */
export function failureLines(message: string | undefined): string[] {
  const lines = (message ?? '').split('\n').filter((line) => !/^\s+at /.test(line));
  return lines.join('\n').trimEnd().replace(ERROR_CLASS, '').split('\n');
}
