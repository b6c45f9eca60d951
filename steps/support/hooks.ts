import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { After, AfterAll, Before, BeforeAll, Status, setDefaultTimeout, setDefinitionFunctionWrapper } from '@cucumber/cucumber';
import { COMMAND_TIMEOUT_MS, RuntimeDriver, RuntimeReportedError } from '../../harness/driver/runtime-driver.js';
import { FakeProvider } from '../../harness/provider/fake-provider.js';
import { dialects } from '../../harness/provider/wire/dialect.js';
import { openTarget, selectionFromEnvironment, type RuntimeTarget } from '../../harness/runtime-target.js';
import { kitPath } from '../../harness/kit-root.js';
import { writeReproBundle } from '../../harness/repro/repro-bundle.js';
import { attachFailureEvidence } from './failure-evidence.js';
import type { ProviderDialectName } from '../../harness/driver/protocol.js';
import type { KitWorld } from './world.js';

setDefaultTimeout(60_000);

let target: RuntimeTarget;
let stopRouting: (() => void) | undefined;

BeforeAll(async function () {
  target = await openTarget(selectionFromEnvironment(process.env));
});

Before(async function (this: KitWorld, { pickle, gherkinDocument }) {
  const feature = basename(gherkinDocument.uri ?? 'scenario', '.feature');
  const line = pickle.location?.line ?? 0;
  this.dir = mkdtempSync(join(tmpdir(), `kit-${feature}-${line}-`));
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
    {
      timeoutMs: COMMAND_TIMEOUT_MS * Number(process.env.KIT_TIMEOUT_SCALE || 1),
      validate: process.env.KIT_VALIDATE !== '0',
    },
  );
  const fallback = this.systemFallback();
  if (fallback) this.provider.isSystemFallback = (text) => fallback.unwrap(text) !== undefined;
  // A scenario of a profile the runtime does not declare is not applicable to it.
  const profiles = pickle.tags.filter((tag) => tag.name.startsWith('@profile:')).map((tag) => tag.name.slice(9));
  if (profiles.length > 0 && !profiles.some((profile) => this.driver.description.profiles.includes(profile))) {
    this.log(`not applicable: the runtime implements ${this.driver.description.profiles.join(', ')}, not ${profiles.join(' or ')}`);
    return 'skipped';
  }
});

After(async function (this: KitWorld, { result, pickle }) {
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
    rmSync(this.dir, { recursive: true, force: true });
    return;
  }
  this.log(`scenario files kept in ${this.dir}`);
  if (problems.length > 0) throw new Error(problems.join('\n'));
});

AfterAll(async function () {
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
