import yargs from 'yargs';
import { hideBin } from 'yargs/helpers';
import { runCommand } from './commands/run/command.js';
import { lintCommand } from './commands/lint/command.js';
import { smokeCommand } from './commands/smoke/command.js';
import { baselineCommand } from './commands/baseline/command.js';
import { replayCommand } from './commands/replay/command.js';
import { diffCommand } from './commands/diff/command.js';
import { inspectCommand } from './commands/inspect/command.js';
import { KitInputError } from '../harness/input-error.js';
import { ExitCode } from './exit-codes.js';

/** yargs refused the command line; thrown so that no command runs on it. */
class UsageError extends Error {}

/** The only place that decides how an error ends the process. */
async function main(argv: string[]): Promise<number> {
  try {
    await yargs(argv)
      .scriptName('kit')
      .usage('$0 <command> [options]\n\nConformance kit for LLM agent session runtimes.')
      .command(runCommand)
      .command(baselineCommand)
      .command(smokeCommand)
      .command(replayCommand)
      .command(diffCommand)
      .command(inspectCommand)
      .command(lintCommand)
      .option('debug', { type: 'boolean', default: false, describe: 'Show stack traces of errors' })
      .option('color', {
        type: 'boolean',
        describe: 'Colour on a terminal; --no-color (or NO_COLOR set) turns it off everywhere',
      })
      .middleware((args) => {
        // One switch for the kit's colour and Cucumber's: NO_COLOR (no-color.org), read by both.
        if (args.color === false) process.env.NO_COLOR = '1';
        // The runtimes the kit drives read it too: their diagnostics reach the terminal only then.
        if (args.debug) process.env.KIT_DEBUG = '1';
      })
      .demandCommand(1, 'Name a command')
      .strict()
      .fail((message, error) => {
        // yargs reports its own refusals, and an option's coercion that refused a value, as YError.
        throw error && error.name !== 'YError' ? error : new UsageError(message || error!.message);
      })
      .help()
      .parseAsync();
    return Number(process.exitCode ?? ExitCode.Passed);
  } catch (error) {
    if (argv.includes('--debug') && error instanceof Error) process.stderr.write(`${error.stack}\n`);
    if (error instanceof UsageError) {
      process.stderr.write(`kit: ${error.message} (kit --help for usage)\n`);
      return ExitCode.UsageOrInput;
    }
    if (error instanceof KitInputError) {
      process.stderr.write(`kit: ${error.message}\n`);
      return ExitCode.UsageOrInput;
    }
    process.stderr.write(
      `kit: internal error: ${error instanceof Error ? error.message : String(error)} (rerun with --debug)\n`,
    );
    return ExitCode.Internal;
  }
}

process.exitCode = await main(hideBin(process.argv));
