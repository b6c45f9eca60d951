import type { Envelope, Pickle } from '@cucumber/messages';
import { EarlierCheckFailed, failureLines, readNote, stepOutcome, type Outcome } from './outcome.js';
import type { TimeSpent } from '../driver/time-spent.js';
import { RuntimeEnded } from '../driver/runtime-fault.js';
import { firstCells, stableIdOf } from '../suite/scenario-id.js';
import {
  checksByStep,
  RULE_TAG,
  rulesChecked,
  rulesStillJudged,
  type CheckingStep,
  type NamedChecks,
  type StepKind,
} from '../suite/step-checks.js';

/** Marks an emulated name the runtime has no interface for at all (the hello's `absent`). */
export const ABSENT_MARK = '(absent)';

/** An entry of a result's `emulated`: the name, and whether the runtime lacks it altogether. */
export function emulatedEntry(entry: string): { name: string; absent: boolean } {
  const absent = entry.endsWith(` ${ABSENT_MARK}`);
  return { name: absent ? entry.slice(0, -ABSENT_MARK.length - 1) : entry, absent };
}

export interface ScenarioResult {
  /** The stable ID: the scenario's `@id:`, or an example row's own (scenario-id.ts). */
  id: string;
  /** An example row's outline ID, which a baseline entry may name for all its rows. */
  outline?: string;
  name: string;
  uri: string;
  line: number;
  rules: string[];
  area: string;
  /** The scenario's closed outcome (see outcome.ts). */
  status: Outcome;
  /** The first failure's message, for a scenario that failed, was not implemented or errored. */
  message?: string;
  /** The step whose failure decided the outcome, as written in the feature, with its line. */
  step?: string;
  /**
   * The rules a failure is charged to: those the failing step checks (features/README: a `# checks:`
   * comment, else the scenario's only rule), which may be a precondition's. Absent when the failing
   * step checks no rule (an action under test): the failure is all the scenario's rules'.
   */
  charged?: string[];
  /**
   * Checks that failed after the first and read what no check above them is about (`# checks
   * independently:`): their rules fail too, each on its own evidence.
   */
  alsoFailed?: LaterFailure[];
  /**
   * The rules of a failed or not judged scenario whose every check ran and held: the failure, or
   * the check that saw nothing real, was another rule's.
   */
  held?: string[];
  /** The provider request that shows the failure, as the model saw it (rendered text). */
  request?: string;
  /** Why a scenario got no verdict: not applicable (for example `needs capability pty`) or not judged. */
  reason?: string;
  /**
   * The commands the scenario used that the adapter computes itself instead of reading them from
   * the runtime; one the runtime lacks altogether ends in ` (absent)`.
   */
  emulated?: string[];
  /**
   * What the runtime lacks that made its refusal of the scenario's action not implemented: the
   * parts of the command the request asked for (`prompt.admit.held`), or else the command.
   */
  refused?: string[];
  /** The same of a command refused only to set up or to look: the scenario gave no verdict, unless a rule is about it (coverage.ts). */
  refusedToReach?: string[];
  /** How the scenario reached the runtime's tools: the kit's own tools, or the runtime's shell. */
  means?: string;
  /** The reading of each open choice the runtime took, as `<choice>: <reading>`. */
  readings?: string[];
  /** Where a failed scenario's working directory (store, workspaces) was kept. */
  kept?: string;
  /** Where the scenario's time went (absent for one set aside before its runtime started). */
  time?: TimeSpent;
}

/** A failed check after the first, which no failure above it can have caused. */
export interface LaterFailure {
  rules: string[];
  /** The step as written, with its line. */
  step?: string;
  message: string;
}

/** The rules a failed scenario fails: those its first failed check is charged to, and those of each later independent one. */
export function failedRules(result: ScenarioResult): string[] {
  return [...new Set([...(result.charged ?? []), ...(result.alsoFailed ?? []).flatMap((later) => later.rules)])];
}

/** The step and message that show a rule's failure in a scenario: the later check's where only it failed the rule. */
export function failureShown(result: ScenarioResult, rule: string): { step?: string; message?: string } {
  const later = result.charged?.includes(rule) ? undefined : result.alsoFailed?.find((f) => f.rules.includes(rule));
  const shown = later ?? result;
  return { ...(shown.step ? { step: shown.step } : {}), ...(shown.message ? { message: shown.message } : {}) };
}

/** Separates the reasons of a scenario that lacks several things. */
export const REASONS_SEPARATOR = '; ';
/** How the hooks log a kept directory, which the collector reads back. */
export const KEPT_LOG = 'scenario files kept in ';

/**
 * How a failing step's provider request is attached: as a log, the one kind of attachment an HTML
 * report shows without a click, named so that the kit's summary can find it.
 */
export function requestAttachment(index: number): { mediaType: string; fileName: string } {
  return { mediaType: 'text/x.cucumber.log+plain', fileName: `request-${index}.txt` };
}

const isRequestAttachment = (attachment: NonNullable<Envelope['attachment']>) =>
  attachment.mediaType === requestAttachment(0).mediaType && /^request-\d+\.txt$/.test(attachment.fileName ?? '');

/** Folds the Cucumber message stream into one result per scenario, tagged with its rules. */
export class ScenarioResultCollector {
  private readonly pickles = new Map<string, Pickle>();
  private readonly caseToPickle = new Map<string, string>();
  private readonly startedToCase = new Map<string, string>();
  private readonly byPickle = new Map<string, ScenarioResult>();
  private readonly lines = new Map<string, number>();
  /** Each example row's first cell, which names the row in its stable ID. */
  private readonly firstCells = new Map<string, string>();
  /** Each test step's pickle step, to name the step that decided a scenario's outcome. */
  private readonly stepOf = new Map<string, { pickleId: string; stepId: string }>();
  private readonly stepLines = new Map<string, { keyword: string; line: number; checks?: NamedChecks }>();
  /** Scenarios whose outcome a step already decided. */
  private readonly decided = new Set<string>();
  /** The steps of each scenario whose check saw nothing real ('' for a note no step made). */
  private readonly notJudged = new Map<string, Set<string>>();
  /** Each running scenario's steps that ran and held, and its checks that failed (a scenario runs on past some). */
  private readonly held = new Map<string, Set<string>>();
  private readonly failedChecks = new Map<string, Set<string>>();
  /** Scenarios whose sizes did not fit the runtime, with why. */
  private readonly misfits = new Map<string, string>();
  total = 0;

  constructor(private readonly onScenario: (result: ScenarioResult) => void = () => {}) {}

  accept(envelope: Envelope): void {
    if (envelope.gherkinDocument) {
      this.recordLines(envelope.gherkinDocument);
      for (const [row, cell] of firstCells(envelope.gherkinDocument)) this.firstCells.set(row, cell);
    }
    if (envelope.pickle) this.pickles.set(envelope.pickle.id, envelope.pickle);
    if (envelope.testCase) {
      this.caseToPickle.set(envelope.testCase.id, envelope.testCase.pickleId);
      this.total += 1;
      for (const step of envelope.testCase.testSteps) {
        if (step.pickleStepId)
          this.stepOf.set(step.id, { pickleId: envelope.testCase.pickleId, stepId: step.pickleStepId });
      }
    }
    if (envelope.testCaseStarted)
      this.startedToCase.set(envelope.testCaseStarted.id, envelope.testCaseStarted.testCaseId);
    if (envelope.testStepFinished) {
      const { testCaseStartedId, testStepId, testStepResult } = envelope.testStepFinished;
      const { status, message, exception } = testStepResult;
      // The step that ends a scenario which ran on past a failed check fails for that check, not its own.
      const earlier = exception?.type === EarlierCheckFailed.name;
      const pickleStep = this.stepOf.get(testStepId)?.stepId;
      if (pickleStep && (status === 'PASSED' || earlier)) this.stepsOf(this.held, testCaseStartedId).add(pickleStep);
      if (!earlier)
        this.decide(
          testCaseStartedId,
          testStepId,
          stepOutcome(status, exception?.type),
          message ?? `step ${status.toLowerCase()}`,
        );
    }
    if (envelope.attachment && isRequestAttachment(envelope.attachment) && envelope.attachment.testCaseStartedId) {
      this.resultFor(envelope.attachment.testCaseStartedId).request ??= envelope.attachment.body;
    }
    const log = envelope.attachment;
    if (log?.testCaseStartedId && log.mediaType === 'text/x.cucumber.log+plain') {
      const result = this.resultFor(log.testCaseStartedId);
      const note = readNote(log.body);
      if (note?.kind === 'not applicable') result.reason ??= note.reason;
      const pickleStep = log.testStepId && this.stepOf.get(log.testStepId)?.stepId;
      if (note?.kind === 'check failed' && pickleStep) {
        this.stepsOf(this.failedChecks, log.testCaseStartedId).add(pickleStep);
        if (this.decided.has(log.testCaseStartedId) && result.status === 'failed')
          this.chargeLater(result, log.testStepId!, note.reason);
        else this.decide(log.testCaseStartedId, log.testStepId!, 'failed', note.reason);
      }
      if (note?.kind === 'not judged') {
        result.reason ??= note.reason;
        this.stepsOf(this.notJudged, log.testCaseStartedId).add(pickleStep || '');
      }
      if (note?.kind === 'sizes') this.misfits.set(log.testCaseStartedId, note.reason);
      if (note?.kind === 'emulated') result.emulated = note.reason.split(', ');
      if (note?.kind === 'refused') result.refused = note.reason.split(', ');
      if (note?.kind === 'refused to reach') result.refusedToReach = note.reason.split(', ');
      if (note?.kind === 'means') result.means = note.reason;
      if (note?.kind === 'time') result.time = JSON.parse(note.reason) as TimeSpent;
      if (note?.kind === 'reading' && !result.readings?.includes(note.reason))
        result.readings = [...(result.readings ?? []), note.reason];
      if (log.body.startsWith(KEPT_LOG)) result.kept = log.body.slice(KEPT_LOG.length);
    }
    if (envelope.testCaseFinished && !envelope.testCaseFinished.willBeRetried) {
      const started = envelope.testCaseFinished.testCaseStartedId;
      const result = this.resultFor(started);
      if (result.status === 'passed' && this.notJudged.has(started)) result.status = 'not judged';
      const misfit = this.misfits.get(started);
      if (misfit && result.status !== 'errored') {
        // Sizes that did not fit the runtime make every check's verdict, a failure's too, an artifact.
        result.status = 'not judged';
        result.reason = misfit;
        delete result.charged;
        delete result.alsoFailed;
        delete result.held;
      }
      // A reading inferred from what the runtime sent (nothing told, say) stands only where the
      // scenario went on to judge: one that ended seeing nothing real took no reading either.
      if (result.status === 'not judged') delete result.readings;
      if (result.charged || result.status === 'not judged' || result.status === 'passed')
        this.settleOtherRules(result, started);
      this.onScenario(result);
    }
  }

  results(): ScenarioResult[] {
    return [...this.byPickle.values()];
  }

  private resultFor(testCaseStartedId: string): ScenarioResult {
    const pickleId = this.caseToPickle.get(this.startedToCase.get(testCaseStartedId)!)!;
    let result = this.byPickle.get(pickleId);
    if (!result) {
      const pickle = this.pickles.get(pickleId)!;
      const tags = pickle.tags.map((tag) => tag.name);
      result = {
        ...stableIdOf(pickle, (row) => this.firstCells.get(row)),
        name: pickle.name,
        uri: pickle.uri,
        line: this.lines.get(pickle.astNodeIds.at(-1)!) ?? this.lines.get(pickle.astNodeIds[0]!) ?? 0,
        rules: tags.flatMap((tag) => RULE_TAG.exec(tag)?.[1] ?? []),
        area: tags.find((tag) => tag.startsWith('@area:'))?.slice(6) ?? 'unassigned',
        status: 'passed',
      };
      this.byPickle.set(pickleId, result);
    }
    return result;
  }

  private stepsOf(sets: Map<string, Set<string>>, started: string): Set<string> {
    const steps = sets.get(started) ?? new Set<string>();
    sets.set(started, steps);
    return steps;
  }

  /** The first step that does not pass decides the scenario's outcome; a later one (an After hook's) cannot undo it. */
  private decide(started: string, testStepId: string, outcome: Outcome, message: string): void {
    if (outcome === 'passed' || this.decided.has(started)) return;
    this.decided.add(started);
    const result = this.resultFor(started);
    result.status = outcome;
    if (outcome === 'not applicable') return;
    result.message = message;
    if (outcome === 'not judged') result.reason ??= failureLines(message).join('\n');
    const step = this.stepOfTest(testStepId);
    if (step) result.step = step.text;
    if (outcome === 'failed') this.charge(result, step);
  }

  /** A test step as written (`Then ... (line 12)`), its kind, and the rules a comment says it checks; hooks have no pickle step. */
  private stepOfTest(testStepId: string): { text: string; kind: StepKind; checks?: string[] } | undefined {
    const ref = this.stepOf.get(testStepId);
    const step = ref && this.pickles.get(ref.pickleId)?.steps.find((s) => s.id === ref.stepId);
    if (!step) return undefined;
    const source = this.stepLines.get(step.astNodeIds[0]!);
    return {
      text: source ? `${source.keyword.trim()} ${step.text} (line ${source.line})` : step.text,
      kind: step.type ?? 'Unknown',
      ...(source?.checks ? { checks: source.checks.rules } : {}),
    };
  }

  /**
   * Charges a failed check to the rule it checks. A set-up or action step that fails without naming
   * a rule checks none: a Given could not bring the scenario to the state its rules are about (it
   * errored); a When never reached what the scenario's checks read (a wait that ran out on a state
   * another rule is about), so no rule of the scenario is judged by it, unless the runtime ended
   * its own process there.
   */
  private charge(result: ScenarioResult, step: { kind: StepKind; checks?: string[] } | undefined): void {
    const rules = step
      ? rulesChecked({ kind: step.kind, ...(step.checks ? { named: step.checks } : {}) }, result.rules)
      : [];
    if (rules.length > 0) result.charged = [...rules];
    // A runtime that ended its own process during the action failed it for every rule the action serves.
    else if (step?.kind === 'Action' && result.message?.startsWith(`${RuntimeEnded.name}: `))
      result.charged = [...result.rules];
    else if (step?.kind === 'Context') {
      result.status = 'errored';
      result.message = `set-up failed (a Given step names no rule it checks): ${failureLines(result.message).join('\n')}`;
    } else if (step?.kind === 'Action') {
      result.status = 'not judged';
      result.reason = `the runtime never reached what the checks read (a When step names no rule it checks): ${failureLines(result.message)[0] ?? ''}`;
    }
  }

  /** A check that failed after the first, reading what no check above it is about: its rules fail on its own evidence. */
  private chargeLater(result: ScenarioResult, testStepId: string, message: string): void {
    const step = this.stepOfTest(testStepId);
    if (!step) return;
    const rules = rulesChecked({ kind: step.kind, ...(step.checks ? { named: step.checks } : {}) }, result.rules);
    result.alsoFailed = [...(result.alsoFailed ?? []), { rules: [...rules], step: step.text, message }];
  }

  /**
   * A scenario that failed one rule's check, or whose check of one rule saw nothing real, still
   * judges its other rules: each is passed when every check of its own ran and held, above the
   * first check that failed or saw nothing, or below it where the check says it reads what no
   * check above it is about. So does a scenario of any outcome judge a rule it is not tagged with
   * whose check a step names.
   */
  private settleOtherRules(result: ScenarioResult, started: string): void {
    const steps = this.pickles.get(this.caseToPickle.get(this.startedToCase.get(started)!)!)?.steps ?? [];
    const checking = steps.map((step) => {
      const named = this.stepLines.get(step.astNodeIds[0]!)?.checks;
      return {
        kind: step.type ?? 'Unknown',
        ...(named ? { named: named.rules, ...(named.independent ? { independent: true } : {}) } : {}),
      } satisfies CheckingStep;
    });
    const held = this.held.get(started) ?? new Set();
    const failed = this.failedChecks.get(started) ?? new Set();
    const notJudged = this.notJudged.get(started) ?? new Set();
    // A note no one rule's check made leaves every rule of the scenario without a verdict.
    const unjudgedSteps = steps.flatMap((step, i) =>
      notJudged.has(step.id) ? [rulesChecked(checking[i]!, result.rules)] : [],
    );
    if (notJudged.has('') || unjudgedSteps.some((rules) => rules.length === 0)) return;
    const unjudged = new Set(unjudgedSteps.flat());
    const named = checking.flatMap((step) => step.named ?? []);
    const candidates = result.status === 'passed' ? [] : result.rules;
    const stopped = steps.findIndex((step) => failed.has(step.id) || notJudged.has(step.id) || !held.has(step.id));
    const passed = rulesStillJudged(
      checking,
      stopped < 0 ? undefined : stopped,
      result.rules,
      (i) => held.has(steps[i]!.id) && !failed.has(steps[i]!.id),
      [...new Set([...candidates, ...named.filter((rule) => !result.rules.includes(rule))])].filter(
        (rule) => !failedRules(result).includes(rule) && !unjudged.has(rule),
      ),
    );
    if (passed.length > 0) result.held = passed;
  }

  /** Scenario and example-row lines, so a result points at the line to open, and what each step checks. */
  private recordLines(document: NonNullable<Envelope['gherkinDocument']>): void {
    const checks = checksByStep(document);
    const record = (step: { id: string; keyword: string; location: { line: number } }) =>
      this.stepLines.set(step.id, {
        keyword: step.keyword,
        line: step.location.line,
        ...(checks.has(step.id) ? { checks: checks.get(step.id)! } : {}),
      });
    for (const child of document.feature?.children ?? []) {
      for (const step of child.background?.steps ?? []) record(step);
      const scenario = child.scenario;
      if (!scenario) continue;
      this.lines.set(scenario.id, scenario.location.line);
      for (const step of scenario.steps) record(step);
      for (const examples of scenario.examples) {
        for (const row of examples.tableBody) this.lines.set(row.id, row.location.line);
      }
    }
  }
}
