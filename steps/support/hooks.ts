import { mkdtempSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { After, AfterAll, Before, BeforeAll, Status, setDefaultTimeout, setDefinitionFunctionWrapper } from '@cucumber/cucumber';
import { RuntimeDriver, RuntimeReportedError, STARTUP_ALLOWANCE_MS } from '../../harness/driver/runtime-driver.js';
import { FakeProvider } from '../../harness/provider/fake-provider.js';
import { dialects } from '../../harness/provider/wire/dialect.js';
import { openTarget, selectionFromEnvironment, type RuntimeTarget } from '../../harness/runtime-target.js';
import { kitPath } from '../../harness/kit-root.js';
import { writeReproBundle } from '../../harness/repro/repro-bundle.js';
import { attachFailureEvidence } from './failure-evidence.js';
import type { ProviderDialectName, RuntimeDescription } from '../../harness/driver/protocol.js';
import type { KitWorld } from './world.js';

const timeoutScale = Number(process.env.KIT_TIMEOUT_SCALE || 1);
// A step may restart the runtime, so it is allowed a start-up on top of its own minute.
setDefaultTimeout((60_000 + STARTUP_ALLOWANCE_MS) * timeoutScale);

let target: RuntimeTarget;
let stopRouting: (() => void) | undefined;
/** What the runtime declared in the run's first handshake: it decides applicability before any start. */
let declared: RuntimeDescription | undefined;
/** Passed scenarios' directories, removed while later scenarios run. */
const removals: Promise<void>[] = [];

BeforeAll(async function () {
  declared = undefined;
  target = await openTarget(selectionFromEnvironment(process.env));
});

/** Why a scenario does not apply to a runtime that declared `description`, if it does not. */
function notApplicable(tags: readonly { name: string }[], description: RuntimeDescription): string | undefined {
  const profiles = tags.filter((tag) => tag.name.startsWith('@profile:')).map((tag) => tag.name.slice(9));
  if (profiles.length > 0 && !profiles.some((profile) => description.profiles.includes(profile))) {
    return `the runtime implements ${description.profiles.join(', ')}, not ${profiles.join(' or ')}`;
  }
  const missing = tags.find((tag) => tag.name.startsWith('@needs:') && !description.capabilities.includes(tag.name.slice(7)));
  return missing && `needs capability ${missing.name.slice(7)}`;
}

Before(async function (this: KitWorld, { pickle, gherkinDocument }) {
  const skip = declared && notApplicable(pickle.tags, declared);
  if (skip) {
    this.log(`not applicable: ${skip}`);
    return 'skipped';
  }
  const feature = basename(gherkinDocument.uri ?? 'scenario', '.feature');
  const line = pickle.location?.line ?? 0;
  // KIT_TMPDIR puts scenario directories elsewhere than TMPDIR, on a tmpfs for instance.
  this.dir = mkdtempSync(join(process.env.KIT_TMPDIR || tmpdir(), `kit-${feature}-${line}-`));
  // A scenario about one provider dialect says so with @dialect:<name>; the rest use the run's default.
  const dialect = (pickle.tags.find((tag) => tag.name.startsWith('@dialect:'))?.name.slice(9) ??
    process.env.KIT_DIALECT ??
    'openai-chat') as ProviderDialectName;
  const wire = dialects[dialect];
  if (!wire) throw new Error(`the kit has no provider dialect "${dialect}"`);
  this.provider = new FakeProvider(wire, kitPath('recordings'), 'kit-model');
  stopRouting = target.route(this.provider);
  this.driver = await RuntimeDriver.start(
    target.launcher,
    {
      storeDir: this.workspace('.store'),
      provider: { dialect, baseUrl: target.providerBaseUrl, apiKey: 'kit-key', model: 'kit-model' },
      now: this.now,
      home: this.workspace('home'),
    },
    { timeoutScale, validate: process.env.KIT_VALIDATE !== '0' },
  );
  declared ??= this.driver.description;
  const fallback = this.systemFallback();
  if (fallback) this.provider.isSystemFallback = (text) => fallback.unwrap(text) !== undefined;
  const reason = notApplicable(pickle.tags, this.driver.description);
  if (reason) {
    this.log(`not applicable: ${reason}`);
    return 'skipped';
  }
});

After(async function (this: KitWorld, { result, pickle }) {
  if (!this.provider) return; // Not applicable before anything started.
  const problems = [
    ...this.provider.unexpected.map((request) => `the provider received a request the scenario did not script: ${request}`),
    ...(this.reportedError && !this.errorAsserted ? [`the runtime reported an error no step expected: ${this.reportedError.message}`] : []),
  ];
  // A failing scenario's durable state can be read only while its runtime still runs. A failing
  // step carries its own evidence; a failure found only here has no step to carry it.
  if (problems.length > 0 && result?.status !== Status.FAILED) await attachFailureEvidence(this);
  if (process.env.KIT_BUNDLES && (result?.status === Status.FAILED || problems.length > 0)) {
    await writeReproBundle(process.env.KIT_BUNDLES, pickle, [result?.message ?? '', ...problems].join('\n'), this);
  }
  await this.driver?.stop();
  this.provider.releaseAll();
  stopRouting?.();
  if (result?.status === Status.PASSED && problems.length === 0) {
    // A directory left behind in the temporary base is harmless; a failed removal fails nothing.
    removals.push(rm(this.dir, { recursive: true, force: true }).catch(() => {}));
    return;
  }
  this.log(`scenario files kept in ${this.dir}`);
  if (problems.length > 0) throw new Error(problems.join('\n'));
});

AfterAll(async function () {
  await Promise.all(removals.splice(0));
  await target?.close();
});

/** A command the runtime reports as unsupported makes the scenario not applicable, not failed. */
setDefinitionFunctionWrapper(function (fn: (...args: unknown[]) => unknown) {
  const wrapped = async function (this: KitWorld, ...args: unknown[]) {
    try {
      return await fn.apply(this, args);
    } catch (error) {
      if (!(error instanceof RuntimeReportedError) || error.code !== 'unsupported') throw error;
      this.log(`not applicable: the runtime does not support ${error.command.cmd} (${error.message})`);
      return 'skipped';
    }
  };
  Object.defineProperty(wrapped, 'length', { value: fn.length });
  return wrapped;
});
