import type { Argv, CommandModule } from 'yargs';
import { lazyHandler } from '../../lazy-handler.js';
import { withRuntimeOptions, type RuntimeArgs } from '../../runtime-options.js';
import { nonEmpty, textOption } from '../../option-values.js';

export interface ReplayArgs extends RuntimeArgs {
  file: string;
  out?: string;
  full: boolean;
  keep?: string;
  trustBundle: boolean;
}

export const replayCommand: CommandModule<object, ReplayArgs> = {
  command: 'replay <file>',
  describe: 'Replay a session script and show what the model saw on each turn, or rerun the scenario of a repro bundle',
  builder: (yargs: Argv) =>
    withRuntimeOptions(yargs)
      .positional('file', {
        type: 'string',
        demandOption: true,
        coerce: nonEmpty('<file>'),
        describe:
          'A session script (.json, see docs/session-scripts.md) or a repro bundle directory written by kit run --bundles',
      })
      .option(
        'out',
        textOption('--out', 'Also write the projection (what the model saw, turn by turn) as JSON, for kit diff'),
      )
      .option('full', {
        type: 'boolean',
        default: false,
        describe: 'List every message of every turn, not only what changed since the previous turn',
      })
      .option('trust-bundle', {
        type: 'boolean',
        default: false,
        describe:
          'Run the runtime command or module a repro bundle names (without it, name the runtime with --adapter or --runtime)',
      })
      .option(
        'keep',
        textOption('--keep', "Keep the runtime's store and the session's workspace in this (new or empty) directory"),
      )
      .example('$0 replay fixtures/scripts/steer-mid-drain.json', 'Replay a script through the reference runtime')
      .example(
        '$0 replay script.json --adapter "python3 my_adapter.py" --out mine.json',
        'Replay it through an adapter and keep the projection',
      )
      .example(
        '$0 replay reports/bundles/inb-promotion-3 --adapter "python3 my_adapter.py"',
        'Rerun the failed scenario of a repro bundle alone',
      )
      .example(
        '$0 replay reports/bundles/inb-promotion-3 --trust-bundle',
        'Rerun it against the runtime the bundle names',
      )
      .example(
        '$0 replay script.json --keep .kit/replay && $0 inspect .kit/replay/store',
        'Look at the durable state a replay left',
      ) as unknown as Argv<ReplayArgs>,
  handler: lazyHandler(async () => (await import('./replay.js')).replay),
};
