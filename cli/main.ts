import yargs from 'yargs';
import { hideBin } from 'yargs/helpers';
import { runCommand } from './commands/run/command.js';
import { lintCommand } from './commands/lint/command.js';
import { smokeCommand } from './commands/smoke/command.js';
import { KitInputError } from '../harness/input-error.js';
import { ExitCode } from './exit-codes.js';

/** The only place that decides how an error ends the process. */
async function main(argv: string[]): Promise<number> {
  let usageError = false;
  try {
    await yargs(argv)
      .scriptName('kit')
      .usage('$0 <command> [options]\n\nConformance kit for LLM agent session runtimes.')
      .command(runCommand)
      .command(smokeCommand)
      .command(lintCommand)
      .option('debug', { type: 'boolean', default: false, describe: 'Show stack traces of errors' })
      .demandCommand(1, 'Name a command; see kit --help')
      .strict()
      .fail((message, error, y) => {
        if (error) throw error;
        usageError = true;
        process.stderr.write(`${y.help() && ''}kit: ${message}\nRun kit --help for usage.\n`);
      })
      .help()
      .parseAsync();
    return usageError ? ExitCode.UsageOrInput : Number(process.exitCode ?? ExitCode.Passed);
  } catch (error) {
    if (argv.includes('--debug') && error instanceof Error) process.stderr.write(`${error.stack}\n`);
    if (error instanceof KitInputError) {
      process.stderr.write(`kit: ${error.message}\n`);
      return ExitCode.UsageOrInput;
    }
    process.stderr.write(`kit: internal error: ${error instanceof Error ? error.message : String(error)} (rerun with --debug)\n`);
    return ExitCode.Internal;
  }
}

process.exitCode = await main(hideBin(process.argv));
