import { runConformance, type ConformanceRunOptions } from '../harness/suite/conformance-run.js';
import type { ScenarioResult } from '../harness/report/scenario-results.js';
import { inProcessLauncher } from '../harness/driver/in-process.js';
import { progressLine } from './progress.js';
import { runtimeSelection, type RuntimeArgs } from './runtime-options.js';
import { tagExpression, type SelectionArgs } from './scenario-selection.js';

/** Runs the selected scenarios against the chosen runtime, with a progress line on a terminal. */
export async function runSuite(
  args: RuntimeArgs & SelectionArgs,
  options: Pick<ConformanceRunOptions, 'formats' | 'failFast' | 'shard' | 'bundles'>,
): Promise<ScenarioResult[]> {
  const runtime = runtimeSelection(args);
  // Loaded here first: inside Cucumber's hooks a module that cannot be driven would end as a crash.
  if ('module' in runtime) await inProcessLauncher(runtime.module);
  const progress = progressLine(process.stderr);
  const results = await runConformance({
    runtime,
    timeoutScale: args.timeoutScale,
    validate: args.validate,
    tags: tagExpression(args),
    ...options,
    onScenario: (result, done, total) => progress.update(`${done}/${total} scenarios · last: ${result.status} ${result.uri}:${result.line}`),
  });
  progress.clear();
  return results;
}
