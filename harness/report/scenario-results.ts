import type { Envelope, Pickle } from '@cucumber/messages';
import { readNote, stepOutcome, type Outcome } from './outcome.js';
import type { TimeSpent } from '../driver/time-spent.js';
import { firstCells, stableIdOf } from '../suite/scenario-id.js';

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
   * The rules a failure is charged to: the rule a `# checks: <rule>` comment names above the
   * failing step (one of the scenario's rules, or a precondition's), else the scenario's own.
   * The scenario's other rules get no verdict from it, unless they are `checkedBefore`.
   */
  charged?: string[];
  /**
   * The scenario's rules besides the charged one whose every check ran before the failed check and
   * passed: every step after it names a rule it checks (or there is none), and none names these.
   */
  checkedBefore?: string[];
  /** The provider request that shows the failure, as the model saw it (rendered text). */
  request?: string;
  /** Why a scenario got no verdict: not applicable (for example `needs capability pty`) or not judged. */
  reason?: string;
  /** The commands the scenario used that the adapter computes itself instead of reading them from the runtime. */
  emulated?: string[];
  /** How the scenario reached the runtime's tools: the kit's own tools, or the runtime's shell. */
  means?: string;
  /** The reading of each open choice the runtime took, as `<choice>: <reading>`. */
  readings?: string[];
  /** Where a failed scenario's working directory (store, workspaces) was kept. */
  kept?: string;
  /** Where the scenario's time went (absent for one set aside before its runtime started). */
  time?: TimeSpent;
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

const RULE_TAG = /^@([A-Z]{3}-\d{2})$/;
/** A comment line right above a step naming the rule the step checks: `# checks: INB-07`. */
const CHECKS_COMMENT = /^\s*#\s*checks:\s*([A-Z]{3}-\d{2})\s*$/;

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
  private readonly stepLines = new Map<string, { keyword: string; line: number; checks?: string }>();
  /** Scenarios whose outcome a step already decided, and those a step marked not judged. */
  private readonly decided = new Set<string>();
  private readonly notJudged = new Set<string>();
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
      const result = this.resultFor(testCaseStartedId);
      const { status, message, exception } = testStepResult;
      const outcome = stepOutcome(status, exception?.type);
      // The first step that does not pass decides; a later one (an After hook's) cannot undo it.
      if (outcome !== 'passed' && !this.decided.has(testCaseStartedId)) {
        this.decided.add(testCaseStartedId);
        result.status = outcome;
        if (outcome !== 'not applicable') {
          result.message = message ?? `step ${status.toLowerCase()}`;
          const step = this.stepOfTest(testStepId);
          if (step) result.step = step.text;
          if (outcome === 'failed') this.charge(result, step, this.rulesCheckedAfter(testStepId));
        }
      }
    }
    if (envelope.attachment && isRequestAttachment(envelope.attachment) && envelope.attachment.testCaseStartedId) {
      this.resultFor(envelope.attachment.testCaseStartedId).request ??= envelope.attachment.body;
    }
    const log = envelope.attachment;
    if (log?.testCaseStartedId && log.mediaType === 'text/x.cucumber.log+plain') {
      const result = this.resultFor(log.testCaseStartedId);
      const note = readNote(log.body);
      if (note?.kind === 'not applicable') result.reason ??= note.reason;
      if (note?.kind === 'not judged') {
        result.reason ??= note.reason;
        this.notJudged.add(log.testCaseStartedId);
      }
      if (note?.kind === 'emulated') result.emulated = note.reason.split(', ');
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
      // A check that saw nothing real makes no pass of the scenario's own rules either.
      if (this.notJudged.has(started)) delete result.checkedBefore;
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

  /**
   * A test step as written (`Then ... (line 12)`), whether it sets up (a Given, or an And after
   * one), and the rule a comment says it checks; hooks have no pickle step.
   */
  private stepOfTest(testStepId: string): { text: string; setUp: boolean; checks?: string } | undefined {
    const ref = this.stepOf.get(testStepId);
    const step = ref && this.pickles.get(ref.pickleId)?.steps.find((s) => s.id === ref.stepId);
    if (!step) return undefined;
    const source = this.stepLines.get(step.astNodeIds[0]!);
    return {
      text: source ? `${source.keyword.trim()} ${step.text} (line ${source.line})` : step.text,
      setUp: step.type === 'Context',
      ...(source?.checks ? { checks: source.checks } : {}),
    };
  }

  /**
   * The rules the pickle steps after a test step name as the ones they check; undefined when one
   * of them names none, and so checks the scenario's own rules (hooks are no pickle steps).
   */
  private rulesCheckedAfter(testStepId: string): Set<string> | undefined {
    const ref = this.stepOf.get(testStepId);
    const steps = ref && this.pickles.get(ref.pickleId)?.steps;
    const at = steps?.findIndex((step) => step.id === ref!.stepId) ?? -1;
    if (at < 0) return undefined;
    const named = steps!.slice(at + 1).map((step) => this.stepLines.get(step.astNodeIds[0]!)?.checks);
    return named.every((rule) => rule !== undefined) ? new Set(named as string[]) : undefined;
  }

  /**
   * Charges a failed check to its rule. A set-up step that fails without naming a rule checks
   * none: the scenario could not be brought to the state its rules are about, so it is errored.
   */
  private charge(
    result: ScenarioResult,
    step: { setUp: boolean; checks?: string } | undefined,
    checkedAfter: Set<string> | undefined,
  ): void {
    if (step?.checks) {
      result.charged = [step.checks];
      const before = result.rules.filter((rule) => rule !== step.checks && !checkedAfter?.has(rule));
      if (checkedAfter && before.length > 0) result.checkedBefore = before;
    } else if (step?.setUp) {
      result.status = 'errored';
      result.message = `set-up failed (a Given step names no rule it checks): ${result.message}`;
    }
  }

  /** Scenario and example-row lines, so a result points at the line to open, and what each step checks. */
  private recordLines(document: NonNullable<Envelope['gherkinDocument']>): void {
    const checks = new Map<number, string>();
    for (const comment of document.comments) {
      const rule = CHECKS_COMMENT.exec(comment.text)?.[1];
      if (rule) checks.set(comment.location.line + 1, rule);
    }
    const record = (step: { id: string; keyword: string; location: { line: number } }) =>
      this.stepLines.set(step.id, {
        keyword: step.keyword,
        line: step.location.line,
        ...(checks.has(step.location.line) ? { checks: checks.get(step.location.line)! } : {}),
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
