import { readSessionScript } from '../../../harness/script/session-script.js';
import { replayScript } from '../../../harness/script/script-replay.js';
import { renderProjection } from '../../../harness/projection/render.js';
import { ExitCode } from '../../exit-codes.js';
import { runtimeSelection } from '../../runtime-options.js';
import { checkOutputPath, writeOutputFile } from '../../output-file.js';
import type { ReplayArgs } from './command.js';

/**
 * Replays a session script and prints what the model saw, turn by turn. A runtime that fails a
 * step, or a request the script gave no provider turn for, ends it with exit 1.
 */
export async function replaySessionScript(args: ReplayArgs): Promise<number> {
  const script = readSessionScript(args.file);
  const out = args.out === undefined ? undefined : { flag: '--out', path: args.out };
  if (out) checkOutputPath(out);
  if (args.keep) checkOutputPath({ flag: '--keep', path: args.keep }, 'directory');
  const outcome = await replayScript(script, {
    runtime: runtimeSelection(args),
    timeoutScale: args.timeoutScale,
    validate: args.validate,
    ...(args.keep ? { keep: args.keep } : {}),
  });
  const { projection } = outcome;
  const stdout = process.stdout;
  stdout.write(`script: ${script.file}${script.title ? ` — ${script.title}` : ''}\nruntime: ${projection.runtime}\n\n`);
  for (const line of renderProjection(projection, args.full)) stdout.write(`${line}\n`);
  stdout.write(`\n${projection.turns.length} turn(s)\n`);
  if (out) writeOutputFile(out, `${JSON.stringify(projection, null, 2)}\n`);
  const problems = [
    ...outcome.unanswered.map((request) => `the provider received ${request}, which no scripted turn answered`),
    ...outcome.unreadable.map((request) => `the provider could not read ${request}`),
    ...outcome.unused.map(
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
