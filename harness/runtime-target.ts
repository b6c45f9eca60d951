import { mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { cachedBundle } from './build/module-bundle.js';
import type { RuntimeLauncher } from './driver/transport.js';
import { kitPath } from './kit-root.js';
import type { FakeProvider } from './provider/fake-provider.js';

/** The reference runtime's adapter module, used when no other runtime is named. */
export const REFERENCE_RUNTIME = 'reference/adapter/conformance-adapter.ts';

/** The runtime under test, and how its provider requests reach the scenario's fake provider. */
export interface RuntimeTarget {
  launcher: RuntimeLauncher;
  providerBaseUrl: string;
  /** Where the runtime may keep what outlives a scenario (hello's `runDir`): removed by `close`. */
  runDir: string;
  /** Sends provider requests to `provider` until the returned function is called. */
  route(provider: FakeProvider): () => void;
  close(): Promise<void>;
}

/** A runtime module driven in process, or an adapter command speaking the stdio protocol. */
export type RuntimeSelection = { module: string } | { adapter: string };

/**
 * The drivers and the provider's routes are loaded here, not at import: every kit command names
 * the reference runtime in its options, and only the commands that drive one need them. The
 * runtime's run directory is made in `root`.
 */
export async function openTarget(selection: RuntimeSelection, root: string): Promise<RuntimeTarget> {
  const runDir = mkdtempSync(join(root, 'kit-runtime-'));
  const removeRunDir = () => rmSync(runDir, { recursive: true, force: true });
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
      runDir,
      route(provider) {
        current = provider;
        return () => (current = undefined);
      },
      async close() {
        await launcher.close?.();
        await loopback.close();
        removeRunDir();
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
    runDir,
    route: interceptFor,
    close: async () => {
      stopIntercepting();
      removeRunDir();
    },
  };
}

let typeScript: Promise<void> | undefined;

/**
 * Imports the runtime module at the absolute `path`: the reference from a bundle of its sources, any
 * other TypeScript module through tsx, registered only then, since most runs need no loader at all.
 */
export async function importRuntimeModule(path: string): Promise<unknown> {
  const reference = kitPath(REFERENCE_RUNTIME);
  const bundle =
    path === reference
      ? await cachedBundle({ name: 'reference-runtime', entry: reference, roots: [kitPath('reference')] })
      : undefined;
  if (!bundle && /\.[cm]?tsx?$/.test(path)) {
    typeScript ??= import('tsx/esm/api').then(({ register }) => void register());
    await typeScript;
  }
  return import(bundle ?? pathToFileURL(path).href);
}
