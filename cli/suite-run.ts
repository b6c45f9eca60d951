import { runConformance, type ConformanceRunOptions } from '../harness/suite/conformance-run.js';
import type { ScenarioResult } from '../harness/report/scenario-results.js';
import { progressLine } from './progress.js';
import { runtimeSelection, type RuntimeArgs } from './runtime-options.js';
import { tagExpression, type SelectionArgs } from './scenario-selection.js';

/** Runs the selected scenarios against the chosen runtime, with a progress line on a terminal. */
export async function runSuite(
  args: RuntimeArgs & SelectionArgs,
  options: Pick<ConformanceRunOptions, 'formats' | 'failFast' | 'shard' | 'bundles'>,
): Promise<ScenarioResult[]> {
  const progress = progressLine(process.stderr);
  const results = await runConformance({
    runtime: runtimeSelection(args),
    timeoutScale: args.timeoutScale,
    validate: args.validate,
    tags: tagExpression(args),
    ...options,
    onScenario: (result, done, total) => progress.update(`${done}/${total} scenarios · last: ${result.status} ${result.uri}:${result.line}`),
  });
  progress.clear();
  return results;
}
