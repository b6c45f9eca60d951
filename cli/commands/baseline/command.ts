import type { Argv, CommandModule } from 'yargs';
import { lazyHandler } from '../../lazy-handler.js';
import { withRuntimeOptions, type RuntimeArgs } from '../../runtime-options.js';
import { withScenarioSelection, type SelectionArgs } from '../../scenario-selection.js';
import { textOption } from '../../option-values.js';

export interface BaselineArgs extends RuntimeArgs, SelectionArgs {
  write: string;
}

export const baselineCommand: CommandModule<object, BaselineArgs> = {
  command: 'baseline',
  describe: 'Run the selected scenarios and write the ones that fail as a baseline of known failures',
  builder: (yargs: Argv) =>
    withScenarioSelection(withRuntimeOptions(yargs))
      .option('write', {
        ...textOption('--write', 'The YAML file to write; reasons of entries already in it are kept'),
        demandOption: true,
      })
      .example(
        '$0 baseline --write known-failures.yaml --adapter "python3 my_adapter.py"',
        'Record what an adapter fails today',
      )
      .example(
        '$0 run --baseline known-failures.yaml --adapter "python3 my_adapter.py"',
        'Then gate CI on not getting worse (or better unnoticed)',
      ) as unknown as Argv<BaselineArgs>,
  handler: lazyHandler(async () => (await import('./baseline.js')).writeBaseline),
};
