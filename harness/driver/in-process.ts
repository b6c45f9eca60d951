import { pathToFileURL } from 'node:url';
import { resolve } from 'node:path';
import type { Command, Reply, RuntimeConfig } from './protocol.js';
import type { RuntimeLauncher, Transport } from './transport.js';

/** What a module must export to be driven in process. */
interface InProcessRuntimeModule {
  openRuntime(config: RuntimeConfig): {
    handle(command: Command): Promise<Reply>;
    terminate(): void;
  };
}

/**
 * Runs a runtime module inside the kit's process. Every command and reply goes through a JSON
 * round trip, so nothing but plain data crosses the boundary, exactly as over a pipe.
 */
export async function inProcessLauncher(modulePath: string): Promise<RuntimeLauncher> {
  const module = (await import(pathToFileURL(resolve(modulePath)).href)) as Partial<InProcessRuntimeModule>;
  if (typeof module.openRuntime !== 'function') {
    throw new Error(`${modulePath} does not export openRuntime(config)`);
  }
  const open = module.openRuntime;
  return {
    name: modulePath,
    async start(config: RuntimeConfig): Promise<Transport> {
      const runtime = open(roundTrip(config));
      return {
        send: async (command) => roundTrip(await runtime.handle(roundTrip(command))),
        kill: async () => runtime.terminate(),
      };
    },
  };
}

function roundTrip<T>(value: T): T {
  return JSON.parse(JSON.stringify(value)) as T;
}
