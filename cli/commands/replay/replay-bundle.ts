import { readReproBundle } from '../../../harness/repro/repro-bundle.js';
import { judge } from '../../../harness/report/verdict.js';
import { formatSummary } from '../../../harness/report/summary.js';
import { KitInputError } from '../../../harness/input-error.js';
import { lintKit } from '../lint/lint.js';
import { stableIds } from '../../../harness/suite/suite-index.js';
import { runExitCode } from '../../run-outcome.js';
import { runtimeName, runtimeSelection, type RuntimeArgs } from '../../runtime-options.js';
import { runSuite } from '../../suite-run.js';
import { keptLine, recordKept } from '../../run-directory.js';
import type { ReplayArgs } from './command.js';

/**
 * Reruns the failed scenario of a repro bundle alone, by its stable ID, against the runtime named
 * on the command line (or, with --trust-bundle, the one it failed on), and says whether it still fails.
 */
export async function replayBundle(args: ReplayArgs): Promise<number> {
  const bundle = readReproBundle(args.file);
  const { scenario } = bundle;
  if (!lintKit().some((s) => stableIds(s).includes(scenario.id))) {
    throw new KitInputError(args.file, `scenario.id: no scenario or example row has the ID ${scenario.id} any more`);
  }
  const named = args.runtime || args.adapter;
  const stored: RuntimeArgs = {
    ...args,
    ...('module' in bundle.runtime ? { runtime: bundle.runtime.module } : { adapter: bundle.runtime.adapter }),
    namedIn: `${args.file}: runtime`,
  };
  // A bundle is data that may come from anyone: the runtime it names runs only when the user says so.
  if (!named && !args.trustBundle) {
    const [option, value] =
      'module' in bundle.runtime ? ['--runtime', bundle.runtime.module] : ['--adapter', bundle.runtime.adapter];
    throw new KitInputError(
      args.file,
      `runtime: the bundle ran ${option} ${JSON.stringify(value)}; name the runtime again (${option} ...) or pass --trust-bundle to run what the bundle says`,
    );
  }
  const runtime: RuntimeArgs = named ? args : stored;
  runtimeSelection(runtime); // A runtime that is not there is refused before anything is printed.
  process.stdout.write(
    `replaying ${scenario.id}: ${scenario.name} (${scenario.uri}:${scenario.line})\n` +
      `it failed with:\n  ${bundle.failure.split('\n').join('\n  ')}\n\n`,
  );
  const results = await runSuite(runtime, { formats: [], failFast: false, ids: [scenario.id] });
  const verdict = judge(results);
  process.stdout.write(`${formatSummary(results, runtimeName(runtime), verdict)}\n`);
  process.stdout.write(verdict.passed ? `${scenario.id} passes now\n` : `${scenario.id} still fails\n`);
  // What a failing replay kept is marked and pointed at as a run's is, so that kit clean finds it.
  const kept = results.filter((result) => result.kept);
  const keptIn = recordKept(kept);
  if (keptIn) process.stdout.write(`${keptLine(keptIn, kept.length)}\n`);
  return runExitCode(
    verdict.passed,
    results.filter((result) => result.status === 'failed'),
  );
}
