import type { Argv, CommandModule } from 'yargs';
import { lazyHandler } from '../../lazy-handler.js';
import { withJsonOutput, type JsonOutputArgs } from '../../json-option.js';
import { nonEmpty, textOption } from '../../option-values.js';

export interface InspectArgs extends JsonOutputArgs {
  store: string;
  session?: string;
}

export const inspectCommand: CommandModule<object, InspectArgs> = {
  command: 'inspect <store>',
  describe: "Show the sessions, events, inbox, history and context epoch in a reference runtime's store",
  builder: (yargs: Argv) =>
    withJsonOutput(yargs)
      .positional('store', {
        type: 'string',
        demandOption: true,
        coerce: nonEmpty('<store>'),
        describe: 'The store directory, or its runtime.sqlite; opened read-only',
      })
      .option('session', textOption('--session', 'Only this session'))
      .example(
        '$0 replay fixtures/scripts/steer-mid-drain.json --keep .kit/replay && $0 inspect .kit/replay/store',
        'The state a replay left',
      )
      .example(
        '$0 inspect /tmp/kit-Promotion1-37-abc/workspaces/.store --session s1 --json',
        'The store a failed scenario kept, as JSON',
      ) as unknown as Argv<InspectArgs>,
  handler: lazyHandler(async () => (await import('./inspect.js')).inspect),
};
