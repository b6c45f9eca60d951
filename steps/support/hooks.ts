import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { After, AfterAll, Before, BeforeAll, Status, setDefaultTimeout } from '@cucumber/cucumber';
import { RuntimeDriver } from '../../harness/driver/runtime-driver.js';
import { FakeProvider } from '../../harness/provider/fake-provider.js';
import { FAKE_PROVIDER_BASE_URL, interceptFor } from '../../harness/provider/interception.js';
import { dialects } from '../../harness/provider/wire/dialect.js';
import { launcherFromEnvironment } from '../../harness/driver/launcher-from-environment.js';
import type { RuntimeLauncher } from '../../harness/driver/transport.js';
import { kitPath } from '../../harness/kit-root.js';
import type { KitWorld } from './world.js';

setDefaultTimeout(30_000);

let launcher: RuntimeLauncher;
let stopIntercepting: (() => void) | undefined;

BeforeAll(async function () {
  launcher = await launcherFromEnvironment();
});

Before(async function (this: KitWorld, { pickle, gherkinDocument }) {
  const feature = basename(gherkinDocument.uri ?? 'scenario', '.feature');
  const line = pickle.location?.line ?? 0;
  this.dir = mkdtempSync(join(tmpdir(), `kit-${feature}-${line}-`));
  this.provider = new FakeProvider(dialects['openai-chat']!, kitPath('recordings'), 'kit-model');
  stopIntercepting = interceptFor(this.provider);
  this.driver = await RuntimeDriver.start(
    launcher,
    {
      storeDir: this.workspace('.store'),
      provider: { dialect: 'openai-chat', baseUrl: FAKE_PROVIDER_BASE_URL, apiKey: 'kit-key', model: 'kit-model' },
      now: this.now,
    },
    this.parameters.commandTimeoutMs ?? 5_000,
  );
});

After(async function (this: KitWorld, { result }) {
  await this.driver?.stop();
  this.provider.releaseAll();
  stopIntercepting?.();
  const problems = [
    ...this.provider.unexpected.map((request) => `the provider received a request the scenario did not script: ${request}`),
    ...(this.reportedError && !this.errorAsserted ? [`the runtime reported an error no step expected: ${this.reportedError.message}`] : []),
  ];
  if (result?.status === Status.PASSED && problems.length === 0) {
    rmSync(this.dir, { recursive: true, force: true });
    return;
  }
  // What the model was sent is the first thing an implementer needs to read a failure.
  this.attach(JSON.stringify(this.provider.requests.map((request) => request.body), null, 2), 'application/json');
  this.log(`scenario files kept in ${this.dir}`);
  if (problems.length > 0) throw new Error(problems.join('\n'));
});

AfterAll(function () {
  stopIntercepting?.();
});
