import type { RuntimeLauncher } from './driver/transport.js';
import type { FakeProvider } from './provider/fake-provider.js';

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

/** A runtime module driven in process, or an adapter command speaking the stdio protocol. */
export type RuntimeSelection = { module: string } | { adapter: string };

/**
 * The drivers and the provider's routes are loaded here, not at import: every kit command names
 * the reference runtime in its options, and only the commands that drive one need them.
 */
export async function openTarget(selection: RuntimeSelection): Promise<RuntimeTarget> {
  if ('adapter' in selection) {
    const [{ stdioLauncher }, { serveOnLoopback }] = await Promise.all([
      import('./driver/stdio.js'),
      import('./provider/loopback.js'),
    ]);
    let current: FakeProvider | undefined;
    const loopback = await serveOnLoopback(() => current);
    const launcher = stdioLauncher(selection.adapter);
    return {
      launcher,
      providerBaseUrl: loopback.baseUrl,
      route(provider) {
        current = provider;
        return () => (current = undefined);
      },
      async close() {
        await launcher.close?.();
        await loopback.close();
      },
    };
  }
  const [{ inProcessLauncher }, { FAKE_PROVIDER_BASE_URL, interceptFor, stopIntercepting }] = await Promise.all([
    import('./driver/in-process.js'),
    import('./provider/interception.js'),
  ]);
  return {
    launcher: await inProcessLauncher(selection.module),
    providerBaseUrl: FAKE_PROVIDER_BASE_URL,
    route: interceptFor,
    close: async () => stopIntercepting(),
  };
}
