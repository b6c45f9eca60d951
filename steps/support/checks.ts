import { BeforeStep } from '@cucumber/cucumber';
import type { GherkinDocument, Pickle } from '@cucumber/messages';
import {
  checksByStep,
  RULE_TAG,
  runsOnAfterFailure,
  type CheckingStep,
  type NamedChecks,
} from '../../harness/suite/step-checks.js';
import { attachFailureEvidence } from './failure-evidence.js';
import { noteText } from '../../harness/report/outcome.js';
import type { KitWorld } from './world.js';

/** The step about to run: its kind, whether the scenario runs on when its check fails, and whether it is the last. */
export interface RunningStep {
  kind: CheckingStep['kind'];
  runsOn: boolean;
  last: boolean;
  /** Its check reads what no check above it is about (`# checks independently:`). */
  independent: boolean;
}

const named = new WeakMap<GherkinDocument, Map<string, NamedChecks>>();

/** The rules each step of a document names, read once per document. */
function namedChecks(document: GherkinDocument): Map<string, NamedChecks> {
  const byStep = named.get(document) ?? checksByStep(document);
  named.set(document, byStep);
  return byStep;
}

function checkingSteps(pickle: Pickle, document: GherkinDocument): CheckingStep[] {
  const byStep = namedChecks(document);
  return pickle.steps.map((step) => {
    const comment = byStep.get(step.astNodeIds[0]!);
    return {
      kind: step.type ?? 'Unknown',
      ...(comment ? { named: comment.rules, ...(comment.independent ? { independent: true } : {}) } : {}),
    };
  });
}

// The one BeforeStep hook: the step's definition takes what it sets (world.takeStep), so hooks see none.
BeforeStep(function (this: KitWorld, { pickle, pickleStep, gherkinDocument }) {
  const steps = checkingSteps(pickle, gherkinDocument);
  const rules = pickle.tags.flatMap((tag) => RULE_TAG.exec(tag.name)?.[1] ?? []);
  const index = pickle.steps.findIndex((step) => step.id === pickleStep.id);
  this.rules = rules;
  this.runningStep = {
    kind: steps[index]?.kind ?? 'Unknown',
    runsOn: runsOnAfterFailure(steps, index, rules),
    last: index === steps.length - 1,
    independent: steps[index]?.independent === true,
  };
});

/**
 * A check failed, and the scenario runs on to its other rules' checks: the failure is noted with
 * its evidence where it happened, and the scenario's last step fails with it (EarlierCheckFailed).
 * A later failed check leaves its rules without a verdict, unless it reads what no check above it
 * is about: then its rules fail too.
 */
export async function runOnPastFailure(world: KitWorld, error: Error, step: RunningStep): Promise<void> {
  if (world.failedChecks.length > 0 && step.independent) {
    world.log(noteText({ kind: 'check failed', reason: error.message }));
    return;
  }
  if (world.failedChecks.length > 0) {
    // A later check may fail only because the runtime never reached what the first one was about
    // (nothing bounded, nothing told): its rules get no verdict from the scenario, not a failure.
    world.notJudged(`${error.message.split('\n')[0]}, after an earlier check failed`);
    return;
  }
  await attachFailureEvidence(world);
  world.failedChecks.push(error);
  world.log(noteText({ kind: 'check failed', reason: error.message }));
}
