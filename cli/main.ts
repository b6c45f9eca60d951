import yargs, { type CommandModule } from 'yargs';
import { hideBin } from 'yargs/helpers';
import { runCommand } from './commands/run/command.js';
import { lintCommand } from './commands/lint/command.js';
import { smokeCommand } from './commands/smoke/command.js';
import { baselineCommand } from './commands/baseline/command.js';
import { replayCommand } from './commands/replay/command.js';
import { diffCommand } from './commands/diff/command.js';
import { inspectCommand } from './commands/inspect/command.js';
import { cleanCommand } from './commands/clean/command.js';
import { KitInputError } from '../harness/input-error.js';
import { ExitCode } from './exit-codes.js';
import { outliveClosedPipes } from './closed-pipe.js';

/** yargs refused the command line; thrown so that no command runs on it. */
class UsageError extends Error {}

const COMMANDS = [
  runCommand,
  baselineCommand,
  smokeCommand,
  replayCommand,
  diffCommand,
  inspectCommand,
  cleanCommand,
  lintCommand,
];

/** The first word, when it names no command: yargs would call it an unknown argument. */
function unknownCommand(argv: string[]): UsageError | undefined {
  const [first] = argv;
  const names = COMMANDS.map((command) => String(command.command).split(' ')[0]!);
  if (first === undefined || first.startsWith('-') || names.includes(first)) return undefined;
  const near = names.filter((name) => editDistance(name, first) <= 2);
  return new UsageError(
    `"${first}" is not a command${near.length ? ` (did you mean ${near.join(' or ')}?)` : ''}: the commands are ${names.join(', ')}`,
  );
}

function editDistance(a: string, b: string): number {
  let row = [...Array(b.length + 1).keys()];
  for (let i = 1; i <= a.length; i++) {
    const next = [i];
    for (let j = 1; j <= b.length; j++)
      next[j] = Math.min(row[j]! + 1, next[j - 1]! + 1, row[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    row = next;
  }
  return row[b.length]!;
}

/**
 * yargs names an option without its dashes, and an unknown one twice (`Unknown arguments: no-such,
 * noSuch`): name each as the user typed it instead.
 */
function unknownArguments(argv: string[], message: string | undefined): string | undefined {
  const missing = /^Not enough arguments following: (.*)$/.exec(message ?? '')?.[1];
  if (missing) return `--${missing}: needs a value`;
  const listed = /^Unknown arguments?: (.*)$/.exec(message ?? '')?.[1]?.split(', ');
  if (!listed) return undefined;
  const typed = argv.filter((arg) => listed.includes(arg.replace(/^-{1,2}/, '').split('=')[0]!));
  const options = typed.filter((arg) => arg.startsWith('-')).map((arg) => arg.split('=')[0]!);
  const words = typed.filter((arg) => !arg.startsWith('-'));
  return (
    [
      options.length > 0 &&
        `${options.join(', ')}: ${options.length > 1 ? 'are not options' : 'is not an option'} of this command`,
      words.length > 0 && `${words.map((word) => JSON.stringify(word)).join(', ')}: unexpected argument(s)`,
    ]
      .filter(Boolean)
      .join('; ') || undefined
  );
}

/** The only place that decides how an error ends the process. */
async function main(argv: string[]): Promise<number> {
  try {
    const unknown = unknownCommand(argv);
    if (unknown) throw unknown;
    const cli = yargs(argv)
      .scriptName('kit')
      .usage('$0 <command> [options]\n\nConformance kit for LLM agent session runtimes.');
    for (const command of COMMANDS) cli.command(command as CommandModule);
    await cli
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
        throw error && error.name !== 'YError'
          ? error
          : new UsageError(unknownArguments(argv, message) ?? (message || error!.message));
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

outliveClosedPipes(process.stdout, process.stderr);
process.exitCode = await main(hideBin(process.argv));
