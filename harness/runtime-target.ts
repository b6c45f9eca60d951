import { inProcessLauncher } from './driver/in-process.js';
import { stdioLauncher } from './driver/stdio.js';
import type { RuntimeLauncher } from './driver/transport.js';
import type { FakeProvider } from './provider/fake-provider.js';
import { FAKE_PROVIDER_BASE_URL, interceptFor, stopIntercepting } from './provider/interception.js';
import { serveOnLoopback } from './provider/loopback.js';
import { kitPath } from './kit-root.js';

/** The reference runtime's adapter module, used when no other runtime is named. */
export const REFERENCE_RUNTIME = 'reference/adapter/conformance-adapter.ts';

/** The runtime under test, and how its provider requests reach the scenario's fake provider. */
export interface RuntimeTarget {
  launcher: RuntimeLauncher;
  providerBaseUrl: string;
  /** Sends provider requests to `provider` until the returned function is called. */
  route(provider: FakeProvider): () => void;
  close(): Promise<void>;
}

/**
 * `kit run` chooses the runtime through the environment, which is all Cucumber's support code
 * shares with it: KIT_ADAPTER (a command speaking the stdio protocol) or KIT_RUNTIME (a module).
 */
export async function openTarget(env: NodeJS.ProcessEnv): Promise<RuntimeTarget> {
  if (env.KIT_ADAPTER) {
    let current: FakeProvider | undefined;
    const loopback = await serveOnLoopback(() => current);
    return {
      launcher: stdioLauncher(env.KIT_ADAPTER),
      providerBaseUrl: loopback.baseUrl,
      route(provider) {
        current = provider;
        return () => (current = undefined);
      },
      close: loopback.close,
    };
  }
  return {
    launcher: await inProcessLauncher(env.KIT_RUNTIME || kitPath(REFERENCE_RUNTIME)),
    providerBaseUrl: FAKE_PROVIDER_BASE_URL,
    route: interceptFor,
    close: async () => stopIntercepting(),
  };
}
