import type { Argv, CommandModule } from 'yargs';
import { lazyHandler } from '../../lazy-handler.js';
import { withRuntimeOptions, type RuntimeArgs } from '../../runtime-options.js';

export const smokeCommand: CommandModule<object, RuntimeArgs> = {
  command: 'smoke',
  describe:
    'Check in seconds that an adapter starts, answers the handshake, runs one prompt and dies cleanly, and that a process it keeps carries nothing into the next scenario',
  builder: (yargs: Argv) =>
    withRuntimeOptions(yargs).example(
      '$0 smoke --adapter "node my-adapter.js"',
      'Smoke-test an adapter',
    ) as unknown as Argv<RuntimeArgs>,
  handler: lazyHandler(async () => (await import('./smoke.js')).runSmoke),
};
