import { mkdtempSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { rm } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { After, AfterAll, Before, BeforeAll, Status, setDefaultTimeout } from '@cucumber/cucumber';
import { COMMAND_TIMEOUT_MS, RuntimeReportedError, STARTUP_ALLOWANCE_MS } from '../../harness/driver/runtime-driver.js';
import { openTarget, type RuntimeTarget } from '../../harness/runtime-target.js';
import { fakeProvider, startRuntime } from '../../harness/runtime-start.js';
import { suiteSettings } from '../../harness/suite/suite-settings.js';
import { runSettled } from '../../harness/suite/run-settled.js';
import { writeReproBundle } from '../../harness/repro/repro-bundle.js';
import { attachFailureEvidence } from './failure-evidence.js';
import type { RuntimeDescription } from '../../harness/protocol/protocol.js';
import { toolMeans } from '../../harness/means/tool-means.js';
import { KEPT_LOG } from '../../harness/report/scenario-results.js';
import { NOT_RUN, noteText, SuiteDefect } from '../../harness/report/outcome.js';
import { sizesMisfit } from './compaction-sizes.js';
import { RuntimeNotDriven } from '../../harness/driver/runtime-fault.js';
import { emulatedCommandsUsed, untaggedNeeds, withoutVerdict } from './applicability.js';
import type { KitWorld } from './world.js';

// A step may restart the runtime, so it is allowed a start-up on top of its own minute. Cucumber
// takes the default timeout as the steps load, once per process.
setDefaultTimeout((60_000 + STARTUP_ALLOWANCE_MS) * suiteSettings().timeoutScale);

/** The run's settings: the steps load once per process, which may hold several runs. */
let settings: ReturnType<typeof suiteSettings>;
let target: RuntimeTarget;
let stopRouting: (() => void) | undefined;
/** What the runtime declared in the run's first handshake: it decides applicability before any start. */
let declared: RuntimeDescription | undefined;
/** Passed scenarios' directories, removed while later scenarios run. */
const removals: Promise<void>[] = [];

/**
 * A runtime that cannot be driven in any of the run's first scenarios (it does not start, does
 * not answer, breaks the protocol) would fail every other one the same way, each after a
 * timeout: the rest fail at once instead. Once one scenario drives it, the run goes on to the end.
 */
const NOT_DRIVEN_BEFORE_GIVING_UP = 3;
const drivingAtStart = { failures: 0, driven: false };

BeforeAll(async () => {
  declared = undefined;
  Object.assign(drivingAtStart, { failures: 0, driven: false });
  settings = suiteSettings();
  target = await openTarget(settings.runtime, settings.scenarioRoot);
});

Before(async function (this: KitWorld, { pickle, gherkinDocument }) {
  const tags = pickle.tags.map((tag) => tag.name);
  const known = declared && withoutVerdict(tags, declared);
  if (known) return this.notApplicable(known);
  if (runSettled()) return this.notApplicable(`${NOT_RUN} the run already has the outcomes it needs`);
  // Thrown before anything is made: a scenario that does not run leaves no directory behind.
  if (!drivingAtStart.driven && drivingAtStart.failures >= NOT_DRIVEN_BEFORE_GIVING_UP) {
    throw new RuntimeNotDriven(
      `${NOT_RUN} the runtime could not be driven in any of the first ${NOT_DRIVEN_BEFORE_GIVING_UP} scenarios it ran`,
    );
  }
  this.startedAt = performance.now();
  const feature = basename(gherkinDocument.uri ?? 'scenario', '.feature');
  const line = pickle.location?.line ?? 0;
  this.dir = mkdtempSync(join(settings.scenarioRoot, `kit-${feature}-${line}-`));
  this.runDir = target.runDir;
  const dialect = scenarioDialect(tags, settings.dialect);
  this.talkTo = (provider) => {
    stopRouting?.();
    provider.now = () => this.now;
    this.provider = provider;
    stopRouting = target.route(provider);
    provider.summaryCheck = this.driver?.description.texts['compaction.summary-check'];
    const fallback = this.driver && this.systemFallback();
    if (fallback) {
      provider.userText = (text) => (fallback.split(text) ?? { user: text }).user;
      provider.frame = (request) => fallback.lift(request);
    }
  };
  this.talkTo(fakeProvider(dialect));
  try {
    this.driver = await startRuntime(target, this.provider, {
      storeDir: this.workspace('.store'),
      now: this.now,
      home: this.workspace('home'),
      timeoutScale: settings.timeoutScale,
      validate: settings.validate,
    });
  } catch (error) {
    // A runtime that speaks only other providers' wire formats is not judged on this one's.
    if (dialect !== settings.dialect && error instanceof RuntimeReportedError && error.code === 'unsupported')
      return this.notApplicable(`needs provider dialect ${dialect}, which the runtime does not speak`);
    throw error;
  }
  declared ??= this.driver.description;
  this.driver.onProcessEnded = () => this.provider.forgetAwaitedHolds();
  this.meansOptions = {
    workspaces: join(this.dir, 'workspaces'),
    timeoutMs: COMMAND_TIMEOUT_MS * settings.timeoutScale,
    location: () => this.session().workspace,
  };
  this.means = toolMeans(this.driver.description, this.driver, this.meansOptions);
  // The runtime's handshake names how it frames system messages: the provider reads them so.
  this.talkTo(this.provider);
  const reason = withoutVerdict(tags, this.driver.description);
  if (reason) return this.notApplicable(reason);
  this.log(noteText({ kind: 'means', reason: this.means.name }));
});

/**
 * A scenario about provider dialects names each one it can run on with `@dialect:<name>`: it runs
 * on the run's dialect when that is one of them, else on the first named. The rest run on the run's.
 */
function scenarioDialect(tags: string[], runDialect: string): string {
  const named = tags.filter((tag) => tag.startsWith('@dialect:')).map((tag) => tag.slice(9));
  return named.length === 0 || named.includes(runDialect) ? runDialect : named[0]!;
}

After(async function (this: KitWorld, { result, pickle, gherkinDocument }) {
  // A scenario set aside before its runtime started has nothing to clean up.
  if (!this.provider) return;
  // A scenario set aside after the handshake shows nothing about driving; an answered command does.
  if (result?.exception?.type === RuntimeNotDriven.name) drivingAtStart.failures += 1;
  else if ((this.driver?.commandsAnswered ?? 0) > 0) drivingAtStart.driven = true;
  const misfit = this.sizedFor && sizesMisfit(this.sizedFor, this.provider.requests[0]);
  if (misfit) this.log(noteText({ kind: 'sizes', reason: misfit }));
  const emulated = emulatedCommandsUsed(this);
  if (result?.status !== Status.SKIPPED && emulated.length > 0)
    this.log(noteText({ kind: 'emulated', reason: emulated.join(', ') }));
  const defects =
    result?.status === Status.SKIPPED
      ? []
      : untaggedNeeds(
          this,
          pickle.tags.map((tag) => tag.name),
        );
  const problems = [
    ...this.provider.unexpected.map(
      (request) => `the provider received a request the scenario did not script: ${request}`,
    ),
    ...this.provider.unreadable.map((request) => `the provider could not read ${request}`),
    ...(this.reportedError && !this.errorAsserted
      ? [`the runtime reported an error no step expected: ${this.reportedError.message}`]
      : []),
    ...defects.map((defect) => defect.message),
  ];
  // A failing scenario's durable state can be read only while its runtime still runs. A failing
  // step carries its own evidence; a failure found only here has no step to carry it.
  if (problems.length > 0 && result?.status !== Status.FAILED) await attachFailureEvidence(this);
  if (settings.bundles && (result?.status === Status.FAILED || problems.length > 0)) {
    await writeReproBundle(
      settings.bundles,
      { pickle, gherkinDocument },
      [result?.message ?? '', ...problems].join('\n'),
      this,
    );
  }
  await this.driver?.stop();
  this.provider.releaseAll();
  stopRouting?.();
  if (this.driver) {
    const { retrySleepMs, requestsReceived } = this.provider;
    const spent = this.driver.time.close(performance.now() - this.startedAt, retrySleepMs, requestsReceived);
    this.log(noteText({ kind: 'time', reason: JSON.stringify(spent) }));
  }
  if ((result?.status === Status.PASSED || result?.status === Status.SKIPPED) && problems.length === 0) {
    // A directory left behind in the temporary base is harmless; a failed removal fails nothing.
    removals.push(rm(this.dir, { recursive: true, force: true }).catch(() => {}));
    return;
  }
  this.log(`${KEPT_LOG}${this.dir}`);
  if (problems.length === 0) return;
  // What the runtime did fails the scenario; a defect of the suite alone leaves it errored.
  throw problems.length === defects.length
    ? new SuiteDefect(problems.join('\n').replace(/^kit bug: /, ''))
    : new Error(problems.join('\n'));
});

AfterAll(async () => {
  await Promise.all(removals.splice(0));
  await target?.close();
});
