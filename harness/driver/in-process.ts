import { resolve } from 'node:path';
import type { Command, Reply } from '../protocol/protocol.js';
import type { RuntimeLauncher } from './transport.js';
import { KitInputError } from '../input-error.js';
import { importRuntimeModule } from '../runtime-target.js';

/** What a module must export to be driven in process. */
interface InProcessRuntimeModule {
  createAdapter(): {
    handle(command: Command): Promise<Reply>;
    terminate(): void;
  };
}

/**
 * Runs a runtime module inside the kit's process. Every command and reply goes through a JSON
 * round trip, so nothing but plain data crosses the boundary, exactly as over a pipe.
 */
export async function inProcessLauncher(modulePath: string): Promise<RuntimeLauncher> {
  let module: Partial<InProcessRuntimeModule>;
  try {
    module = (await importRuntimeModule(resolve(modulePath))) as Partial<InProcessRuntimeModule>;
  } catch (error) {
    const message = String((error as Error).message ?? error).split('\n')[0]!;
    // Node loads a .ts file as CommonJS outside a package of "type": "module", and then cannot take its exports.
    const asCommonJs =
      /require\(\) (of )?ES Module|import statement outside a module|export' is not defined|Unexpected token 'export'/.test(
        message,
      );
    throw new KitInputError(
      modulePath,
      `the runtime module cannot be loaded: ${message}${asCommonJs ? ' (Node reads it as CommonJS: name it .mts, or set "type": "module" in the package.json above it)' : ''}`,
    );
  }
  if (typeof module.createAdapter !== 'function') {
    throw new KitInputError(modulePath, 'the runtime module does not export createAdapter()');
  }
  const create = module.createAdapter;
  return {
    name: modulePath,
    async start() {
      const adapter = create();
      return {
        send: async (command) => roundTrip(await adapter.handle(roundTrip(command))),
        kill: async () => adapter.terminate(),
      };
    },
  };
}

function roundTrip<T>(value: T): T {
  return JSON.parse(JSON.stringify(value)) as T;
}
