import type { Argv, CommandModule } from 'yargs';
import { lazyHandler } from '../../lazy-handler.js';
import { withRuntimeOptions, type RuntimeArgs } from '../../runtime-options.js';

export interface SmokeArgs extends RuntimeArgs {
  capabilityTable?: string;
}

export const smokeCommand: CommandModule<object, SmokeArgs> = {
  command: 'smoke',
  describe:
    'Check in seconds that an adapter starts, answers the handshake, runs one prompt and dies cleanly, and that a process it keeps carries nothing into the next scenario',
  builder: (yargs: Argv) =>
    withRuntimeOptions(yargs)
      .option('capability-table', {
        type: 'string',
        describe:
          'A markdown file (the adapter\'s README) whose "## What the adapter drives" table is checked against the handshake: a row per command and capability, written through, emulated:, absent in <version>: or not wired:',
      })
      .example('$0 smoke --adapter "node my-adapter.js"', 'Smoke-test an adapter')
      .example(
        '$0 smoke --adapter "node my-adapter.js" --capability-table README.md',
        'Check also that the README says how the adapter reaches each command',
      ) as unknown as Argv<SmokeArgs>,
  handler: lazyHandler(async () => (await import('./smoke.js')).runSmoke),
};
