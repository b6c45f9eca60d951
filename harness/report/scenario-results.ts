import type { Envelope, Pickle, TestStepResultStatus } from '@cucumber/messages';
import { RuntimeNotDriven } from '../driver/runtime-fault.js';

/** `not-applicable`: the runtime declared it does not support what the scenario needs. */
export type ScenarioStatus = 'passed' | 'failed' | 'not-applicable';

export interface ScenarioResult {
  id: string;
  name: string;
  uri: string;
  line: number;
  rules: string[];
  area: string;
  status: ScenarioStatus;
  /** The first failure's message, for a failed scenario. */
  message?: string;
  /** The provider request that shows the failure, as the model saw it (rendered text). */
  request?: string;
  /** Why a not-applicable scenario got no verdict (for example `needs capability pty`). */
  reason?: string;
  /** A failed scenario whose runtime could not be driven: a fault of the adapter, not a verdict on a rule. */
  notDriven?: true;
  /** Where a failed scenario's working directory (store, workspaces) was kept. */
  kept?: string;
}

/** How a scenario's log line states why it gets no verdict; the collector reads the reason from it. */
export const NOT_APPLICABLE = 'not applicable: ';
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

/** Folds the Cucumber message stream into one result per scenario, tagged with its rules. */
export class ScenarioResultCollector {
  private readonly pickles = new Map<string, Pickle>();
  private readonly caseToPickle = new Map<string, string>();
  private readonly startedToCase = new Map<string, string>();
  private readonly byPickle = new Map<string, ScenarioResult>();
  private readonly lines = new Map<string, number>();
  total = 0;

  constructor(private readonly onScenario: (result: ScenarioResult) => void = () => {}) {}

  accept(envelope: Envelope): void {
    if (envelope.gherkinDocument) this.recordLines(envelope.gherkinDocument);
    if (envelope.pickle) this.pickles.set(envelope.pickle.id, envelope.pickle);
    if (envelope.testCase) {
      this.caseToPickle.set(envelope.testCase.id, envelope.testCase.pickleId);
      this.total += 1;
    }
    if (envelope.testCaseStarted)
      this.startedToCase.set(envelope.testCaseStarted.id, envelope.testCaseStarted.testCaseId);
    if (envelope.testStepFinished) {
      const result = this.resultFor(envelope.testStepFinished.testCaseStartedId);
      const { status, message, exception } = envelope.testStepFinished.testStepResult;
      const mapped = mapStatus(status);
      if (mapped === 'failed' && result.status !== 'failed') {
        result.status = 'failed';
        result.message = message ?? `step ${status.toLowerCase()}`;
        if (exception?.type === RuntimeNotDriven.name) result.notDriven = true;
      } else if (mapped === 'not-applicable' && result.status === 'passed') result.status = 'not-applicable';
    }
    if (envelope.attachment && isRequestAttachment(envelope.attachment) && envelope.attachment.testCaseStartedId) {
      this.resultFor(envelope.attachment.testCaseStartedId).request ??= envelope.attachment.body;
    }
    const log = envelope.attachment;
    if (
      log?.testCaseStartedId &&
      log.mediaType === 'text/x.cucumber.log+plain' &&
      log.body.startsWith(NOT_APPLICABLE)
    ) {
      this.resultFor(log.testCaseStartedId).reason ??= log.body.slice(NOT_APPLICABLE.length);
    }
    if (log?.testCaseStartedId && log.mediaType === 'text/x.cucumber.log+plain' && log.body.startsWith(KEPT_LOG)) {
      this.resultFor(log.testCaseStartedId).kept = log.body.slice(KEPT_LOG.length);
    }
    if (envelope.testCaseFinished && !envelope.testCaseFinished.willBeRetried) {
      this.onScenario(this.resultFor(envelope.testCaseFinished.testCaseStartedId));
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
        id: tags.find((tag) => tag.startsWith('@id:'))?.slice(4) ?? pickle.id,
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

  /** Scenario and example-row lines, so a result points at the line to open. */
  private recordLines(document: NonNullable<Envelope['gherkinDocument']>): void {
    for (const child of document.feature?.children ?? []) {
      const scenario = child.scenario;
      if (!scenario) continue;
      this.lines.set(scenario.id, scenario.location.line);
      for (const examples of scenario.examples) {
        for (const row of examples.tableBody) this.lines.set(row.id, row.location.line);
      }
    }
  }
}

function mapStatus(status: TestStepResultStatus): ScenarioStatus {
  switch (status) {
    case 'PASSED':
      return 'passed';
    case 'SKIPPED':
      return 'not-applicable';
    default:
      // Undefined, ambiguous and pending steps are defects of the suite: they count as failures.
      return 'failed';
  }
}
