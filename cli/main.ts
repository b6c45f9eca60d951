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
import { didYouMean, nearest } from './nearest.js';

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

const COMMAND_NAMES = COMMANDS.map((command) => String(command.command).split(' ')[0]!);

/** The first word, when it names no command: yargs would call it an unknown argument. */
function unknownCommand(argv: string[]): UsageError | undefined {
  const [first] = argv;
  if (first === undefined || first.startsWith('-') || COMMAND_NAMES.includes(first)) return undefined;
  return new UsageError(
    `"${first}" is not a command${didYouMean(nearest(first, COMMAND_NAMES))}: the commands are ${COMMAND_NAMES.join(', ')}`,
  );
}

/**
 * yargs names an option without its dashes, and an unknown one twice (`Unknown arguments: no-such,
 * noSuch`): name each as the user typed it instead, with the command's option nearest to it.
 */
function unknownArguments(argv: string[], message: string | undefined, known: string[]): string | undefined {
  const missing = /^Not enough arguments following: (.*)$/.exec(message ?? '')?.[1];
  if (missing) return `--${missing}: needs a value`;
  const listed = /^Unknown arguments?: (.*)$/.exec(message ?? '')?.[1]?.split(', ');
  if (!listed) return undefined;
  // yargs lists an option whose name holds a line break or other control character by its first part.
  const name = (arg: string) => arg.replace(/^-{1,2}/, '').split(/[=\u0000-\u001f]/)[0]!;
  // A negated boolean (`--no-x`) is listed as `x`.
  const typed = argv.filter((arg) => listed.includes(name(arg)) || listed.includes(name(arg).replace(/^no-/, '')));
  const options = typed.filter((arg) => arg.startsWith('-')).map((arg) => arg.split('=')[0]!);
  const words = typed.filter((arg) => !arg.startsWith('-'));
  const flags = known.flatMap((name) => [`--${name}`, `--no-${name}`]);
  const near = options.length === 1 ? elsewhereOrNear(argv[0], options[0]!, flags) : '';
  return (
    [
      options.length > 0 &&
        `${options.join(', ')}: ${options.length > 1 ? 'are not options' : 'is not an option'} of this command${near}`,
      words.length > 0 && `${words.map((word) => JSON.stringify(word)).join(', ')}: unexpected argument(s)`,
    ]
      .filter(Boolean)
      .join('; ') || undefined
  );
}

/**
 * What to tell of an option the command does not take: the other commands that take it (`--rule`
 * given to replay belongs to run), else the command's option nearest to it.
 */
function elsewhereOrNear(commandName: string | undefined, option: string, flags: string[]): string {
  const name = option.replace(/^-{1,2}(no-)?/, '');
  const owners = COMMANDS.filter((command) => {
    const commandWord = String(command.command).split(' ')[0];
    if (commandWord === commandName || typeof command.builder !== 'function') return false;
    const options = yargs([]);
    command.builder(options as never);
    // yargs keeps the options a builder declared where its types do not show them.
    return Object.hasOwn((options as unknown as { getOptions(): { key: object } }).getOptions().key, name);
  }).map((command) => `kit ${String(command.command).split(' ')[0]}`);
  return owners.length > 0 ? ` (an option of ${owners.join(' and ')})` : didYouMean(nearest(option, flags));
}

/** The positional arguments of the command `argv` names (`<file>`, `[more..]`), by name. */
function positionalsOf(argv: string[]): string[] {
  const command = COMMANDS.find((c) => String(c.command).split(' ')[0] === argv[0]);
  return [...String(command?.command ?? '').matchAll(/[<[]([\w-]+)(?:\.\.)?[>\]]/g)].map((match) => match[1]!);
}

/**
 * yargs' words for an argument, a required option or a command left out, or two options given
 * together that exclude each other: the kit's instead, naming what is at fault as the user types it,
 * with what it is for (its description in the help) where one thing is missing.
 */
function missingArguments(
  argv: string[],
  message: string | undefined,
  describe: Record<string, string>,
): string | undefined {
  const purpose = (name: string) => {
    const text = describe[name];
    return text ? `: ${text[0]!.toLowerCase()}${text.slice(1)}` : '';
  };
  const missing = (names: string[]) =>
    `${names.join(' and ')}: missing${names.length === 1 ? purpose(names[0]!.replace(/^<|>$|^--/g, '')) : ''}`;
  const got = /^Not enough non-option arguments: got (\d+)/.exec(message ?? '')?.[1];
  if (got !== undefined) {
    const command = COMMANDS.find((c) => String(c.command).split(' ')[0] === argv[0]);
    const positionals = String(command?.command ?? '').match(/<[^>]+>/g) ?? [];
    // A misspelt option before the arguments takes the next one as its value: it is the fault, not the argument.
    const known = Object.keys(describe).flatMap((name) => [`--${name}`, `--no-${name}`]);
    const unknown = argv.findIndex((arg) => arg.startsWith('--') && !known.includes(arg.split('=')[0]!));
    if (unknown >= 0) {
      const option = argv[unknown]!.split('=')[0]!;
      const taken = argv[unknown]!.includes('=') ? undefined : argv[unknown + 1];
      return `${option}: is not an option of this command${elsewhereOrNear(argv[0], option, known)}${taken && !taken.startsWith('-') ? `, and took ${JSON.stringify(taken)} as its value` : ''}`;
    }
    return missing(positionals.slice(Number(got)));
  }
  const required = /^Missing required arguments?: (.*)$/.exec(message ?? '')?.[1];
  if (required) return missing(required.split(', ').map((name) => `--${name}`));
  const exclusive = /^Arguments (\S+) and (\S+) are mutually exclusive$/.exec(message ?? '');
  if (exclusive) return `--${exclusive[1]} and --${exclusive[2]}: give one of them, not both`;
  return undefined;
}

/**
 * An error's message as the one line it is printed as: a newline, carriage return or other control
 * character that came from the input (a path, a field, a flag's value) is written escaped.
 */
const oneLine = (message: string) => message.replace(/[\u0000-\u001f\u007f]/g, (c) => JSON.stringify(c).slice(1, -1));

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
      .demandCommand(1, `<command>: missing: one of ${COMMAND_NAMES.join(', ')}`)
      .strict()
      .fail((message, error, usage) => {
        // yargs reports its own refusals, and an option's coercion that refused a value, as YError.
        if (error && error.name !== 'YError') throw error;
        // yargs hands its usage object here, which its types call the yargs instance.
        const describe = (usage as unknown as { getDescriptions(): Record<string, string> }).getDescriptions();
        // A positional (`<file>`) has a description too, but no flag of that name is taken.
        const flags = Object.keys(describe).filter((name) => !positionalsOf(argv).includes(name));
        throw new UsageError(
          unknownArguments(argv, message, flags) ??
            missingArguments(argv, message, describe) ??
            (message || error!.message),
        );
      })
      .help()
      .parseAsync();
    return Number(process.exitCode ?? ExitCode.Passed);
  } catch (error) {
    if (argv.includes('--debug') && error instanceof Error) process.stderr.write(`${error.stack}\n`);
    if (error instanceof UsageError) {
      process.stderr.write(`kit: ${oneLine(error.message)} (kit --help for usage)\n`);
      return ExitCode.UsageOrInput;
    }
    if (error instanceof KitInputError) {
      process.stderr.write(`kit: ${oneLine(error.message)}\n`);
      return ExitCode.UsageOrInput;
    }
    process.stderr.write(
      `kit: internal error: ${oneLine(error instanceof Error ? error.message : String(error))} (rerun with --debug)\n`,
    );
    return ExitCode.Internal;
  }
}

outliveClosedPipes(process.stdout, process.stderr);
process.exitCode = await main(hideBin(process.argv));
