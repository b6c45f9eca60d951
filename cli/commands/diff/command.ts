import type { Argv, CommandModule } from 'yargs';
import { lazyHandler } from '../../lazy-handler.js';
import { withJsonOutput, type JsonOutputArgs } from '../../json-option.js';
import { nonEmpty } from '../../option-values.js';

export interface DiffArgs extends JsonOutputArgs {
  a: string;
  b: string;
}

export const diffCommand: CommandModule<object, DiffArgs> = {
  command: 'diff <a> <b>',
  describe: 'Compare two projections (kit replay --out) turn by turn and show where what the model saw first differs',
  builder: (yargs: Argv) =>
    withJsonOutput(yargs)
      .positional('a', {
        type: 'string',
        demandOption: true,
        coerce: nonEmpty('<a>'),
        describe: 'A projection written by kit replay --out',
      })
      .positional('b', {
        type: 'string',
        demandOption: true,
        coerce: nonEmpty('<b>'),
        describe: 'Another projection, e.g. of the same script on another runtime',
      })
      .example('$0 diff reference.json mine.json', 'Where does my runtime first show the model something else?')
      .example('$0 diff a.json b.json --json', 'The same, as JSON')
      .epilogue(
        'Exit code 0 when the projections are equal, 1 when they differ, 2 when one cannot be read. Colour follows the terminal; NO_COLOR turns it off.',
      ) as unknown as Argv<DiffArgs>,
  handler: lazyHandler(async () => (await import('./diff.js')).diff),
};
