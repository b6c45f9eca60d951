import { runConformance, type ConformanceRunOptions } from '../harness/suite/conformance-run.js';
import type { ScenarioResult } from '../harness/report/scenario-results.js';
import { isFailure } from '../harness/report/outcome.js';
import { inProcessLauncher } from '../harness/driver/in-process.js';
import { progressLine } from './progress.js';
import { runtimeSelection, type RuntimeArgs } from './runtime-options.js';
import { tagExpression, type SelectionArgs } from './scenario-selection.js';

/** Runs the selected scenarios against the chosen runtime, telling stderr how far it is. */
export async function runSuite(
  args: RuntimeArgs & SelectionArgs,
  options: Pick<ConformanceRunOptions, 'formats' | 'failFast' | 'shard' | 'bundles' | 'selectedBy'>,
): Promise<ScenarioResult[]> {
  const runtime = runtimeSelection(args);
  // Loaded here first: inside Cucumber's hooks a module that cannot be driven would end as a crash.
  if ('module' in runtime) await inProcessLauncher(runtime.module);
  const progress = progressLine(process.stderr);
  let failed = 0;
  try {
    return await runConformance({
      runtime,
      timeoutScale: args.timeoutScale,
      validate: args.validate,
      tags: tagExpression(args),
      // `--debug` adds Cucumber's step-by-step account of each failure, stack traces included.
      stepDetail: process.env.KIT_DEBUG === '1',
      ...options,
      onScenario: (result, done, total) => {
        if (isFailure(result.status)) failed += 1;
        progress.update(
          `${done}/${total} scenarios, ${failed} failed · last: ${result.status} ${result.uri}:${result.line}`,
        );
        // Cucumber writes its summary once the last scenario is done: the progress ends first.
        if (done === total) progress.clear();
      },
    });
  } finally {
    progress.clear();
  }
}
