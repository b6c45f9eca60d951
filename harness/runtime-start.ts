import { RuntimeDriver } from './driver/runtime-driver.js';
import type { ProviderDialectName } from './protocol/protocol.js';
import { FakeProvider } from './provider/fake-provider.js';
import { dialects } from './provider/wire/dialect.js';
import { kitPath } from './kit-root.js';
import type { RuntimeTarget } from './runtime-target.js';

import { KIT_MODEL, OTHER_KIT_MODELS } from './provider/kit-models.js';

/** A fake provider speaking `dialect` and answering as `model`, with the kit's recordings. */
export function fakeProvider(dialect: string, model = KIT_MODEL): FakeProvider {
  const wire = dialects[dialect];
  if (!wire) throw new Error(`the kit has no provider dialect "${dialect}"`);
  return new FakeProvider(wire, kitPath('recordings'), model);
}

export interface RuntimeStart {
  storeDir: string;
  /** Stands for the user's home configuration directory. */
  home: string;
  /** The runtime's clock at start. */
  now: string;
  timeoutScale: number;
  validate: boolean;
}

/**
 * Starts the runtime of `target` with `provider` as its model provider: the provider's dialect and
 * model, at the target's provider address. The caller routes the target's requests to `provider`.
 */
export function startRuntime(
  target: RuntimeTarget,
  provider: FakeProvider,
  start: RuntimeStart,
): Promise<RuntimeDriver> {
  return RuntimeDriver.start(
    target.launcher,
    {
      storeDir: start.storeDir,
      provider: {
        dialect: provider.dialect.name as ProviderDialectName,
        baseUrl: target.providerBaseUrl,
        apiKey: 'kit-key',
        model: provider.model,
        models: OTHER_KIT_MODELS.filter((model) => model !== provider.model),
      },
      now: start.now,
      home: start.home,
      runDir: target.runDir,
    },
    { timeoutScale: start.timeoutScale, validate: start.validate, progress: () => provider.scriptedTurnsTaken },
  );
}
