import { readSessionScript } from '../../../harness/script/session-script.js';
import { replayScript } from '../../../harness/script/script-replay.js';
import { TurnRenderer } from '../../../harness/projection/render.js';
import { ProjectionWriter } from '../../../harness/projection/projection-writer.js';
import { ExitCode } from '../../exit-codes.js';
import { runtimeSelection } from '../../runtime-options.js';
import { checkOutputPath, outputWriting } from '../../output-file.js';
import type { ReplayArgs } from './command.js';

/**
 * Replays a session script and prints what the model saw, turn by turn, each turn as it is made
 * (and writes it to --out the same way). A runtime that fails a step, or a request the script
 * gave no provider turn for, ends it with exit 1.
 */
export async function replaySessionScript(args: ReplayArgs): Promise<number> {
  const script = readSessionScript(args.file);
  const out = args.out === undefined ? undefined : { flag: '--out', path: args.out };
  if (out) checkOutputPath(out);
  if (args.keep) checkOutputPath({ flag: '--keep', path: args.keep }, 'directory');
  const stdout = printer(process.stdout);
  const header = (runtime: string) =>
    stdout.write(`script: ${script.file}${script.title ? ` — ${script.title}` : ''}\nruntime: ${runtime}\n\n`);
  const renderer = new TurnRenderer(args.full);
  const writer = out && outputWriting(out, () => new ProjectionWriter(out.path, script.file));
  // A failed write is thrown once the replay is over: thrown at once, it would reach the runtime
  // under test as the provider's failure.
  let writeFailure: { error: unknown } | undefined;
  const write = (step: (writer: ProjectionWriter) => void) => {
    try {
      if (writer && !writeFailure) step(writer);
    } catch (error) {
      writeFailure = { error };
    }
  };
  let started = false;
  const outcome = await replayScript(
    script,
    {
      runtime: runtimeSelection(args),
      timeoutScale: args.timeoutScale,
      validate: args.validate,
      ...(args.keep ? { keep: args.keep } : {}),
    },
    {
      started(runtime) {
        started = true;
        header(runtime);
        write((writer) => writer.begin(runtime));
      },
      turn(turn) {
        stdout.write(`${[...renderer.render(turn)].join('\n')}\n`);
        write((writer) => writer.turn(turn));
      },
    },
  )
    .catch((error: unknown) => {
      writer?.abandon();
      throw error;
    })
    .finally(() => stdout.flush());
  if (!started) header(outcome.runtime);
  stdout.write(`\n${outcome.turns} turn(s)\n`);
  stdout.flush();
  if (out && writer) {
    write((writer) => writer.end(outcome.runtime));
    const failure = writeFailure;
    if (failure) {
      writer.abandon();
      outputWriting(out, () => {
        throw failure.error;
      });
    }
  }
  const problems = [
    ...outcome.unanswered.map((request) => `the provider received ${request}, which no scripted turn answered`),
    ...outcome.unreadable.map((request) => `the provider could not read ${request}`),
    // A replay that stopped at a step leaves the turns after it unrequested: that is the stop's to say.
    ...(outcome.stoppedAt ? [] : outcome.unused).map(
      (step) => `the provider turn of ${step} was never requested: the session stopped asking early`,
    ),
    ...outcome.failures.map((failure) => `the runtime recorded a failure: ${failure}`),
    ...(outcome.stoppedAt ? [`the runtime failed at ${outcome.stoppedAt.at}: ${outcome.stoppedAt.reason}`] : []),
  ];
  // Diagnostics often say why: they are shown with the problems, but are none on their own.
  const diagnostics =
    problems.length > 0 ? outcome.diagnostics.map((line) => `the runtime reported: ${line.split('\n')[0]}`) : [];
  for (const problem of [...problems, ...diagnostics]) process.stderr.write(`kit: ${problem}\n`);
  if (outcome.stoppedAt?.notDriven) return ExitCode.RuntimeNotDriven;
  return problems.length > 0 ? ExitCode.ConformanceFailure : ExitCode.Passed;
}

/** Printed in pieces of about this many characters, unless to a terminal. */
const PRINT_AT = 1 << 16;

/**
 * Writes to `stream` in pieces: a long replay otherwise makes a system call per turn. On a
 * terminal each write shows at once, so that a person sees every turn as it is made.
 */
function printer(stream: NodeJS.WriteStream): { write(text: string): void; flush(): void } {
  let pending = '';
  const flush = () => {
    if (pending) stream.write(pending);
    pending = '';
  };
  return {
    write(text) {
      pending += text;
      if (stream.isTTY || pending.length >= PRINT_AT) flush();
    },
    flush,
  };
}
