import type { ConformanceRunOptions } from '../harness/suite/conformance-run.js';
import type { ScenarioResult } from '../harness/report/scenario-results.js';
import { tally } from '../harness/report/summary.js';
import { inProcessLauncher } from '../harness/driver/in-process.js';
import { rmSync } from 'node:fs';
import { progressLine, scenarioProgress } from './progress.js';
import { ExitCode } from './exit-codes.js';
import { makeRunDirectory, removeIfEmpty } from './run-directory.js';
import { runtimeSelection, type RuntimeArgs } from './runtime-options.js';
import { nearTags, tagExpression, type SelectionArgs } from './scenario-selection.js';
import { readScenarios, selectedBy } from '../harness/suite/suite-index.js';
import { kitPath } from '../harness/kit-root.js';
import { KitInputError } from '../harness/input-error.js';

/** Runs the selected scenarios against the chosen runtime, telling stderr how far it is. */
export async function runSuite(
  args: RuntimeArgs & SelectionArgs,
  options: Pick<ConformanceRunOptions, 'formats' | 'failFast' | 'shard' | 'ids' | 'bundles' | 'selectedBy'>,
): Promise<ScenarioResult[]> {
  const tags = tagExpression(args);
  // Told from the feature files at once, where Cucumber would first load itself and every feature.
  const scenarios = tags ? readScenarios(kitPath('features')) : [];
  if (tags && !scenarios.some((scenario) => selectedBy(tags, scenario)))
    throw new KitInputError(options.selectedBy ?? '--tags', `no scenario matches ${tags}${nearTags(tags, scenarios)}`);
  const runtime = runtimeSelection(args);
  // Loaded here first: inside Cucumber's hooks a module that cannot be driven would end as a crash.
  if ('module' in runtime) await inProcessLauncher(runtime.module);
  const progress = progressLine(process.stderr);
  const seen = tally([]);
  let done = 0;
  let total = 0;
  const directory = makeRunDirectory();
  // Ctrl-C: say so, remove what the run made once its adapters are killed (on exit), end as 130.
  const interrupted = () => {
    progress.clear();
    const where = total ? `after ${done} of ${total} scenarios` : 'before the first scenario ended';
    process.stderr.write(`kit: interrupted ${where}; nothing was judged, and the run's files are removed\n`);
    process.once('exit', () => rmSync(directory, { recursive: true, force: true }));
    process.exit(ExitCode.Interrupted);
  };
  process.once('SIGINT', interrupted);
  try {
    // Cucumber loads only once the run starts: a refused input costs no more than the kit's own modules.
    const { runConformance } = await import('../harness/suite/conformance-run.js');
    return await runConformance({
      runtime,
      timeoutScale: args.timeoutScale,
      validate: args.validate,
      tags,
      // `--debug` adds Cucumber's step-by-step account of each failure, stack traces included.
      stepDetail: process.env.KIT_DEBUG === '1',
      ...options,
      onScenario: (result, scenariosDone, scenarios) => {
        [done, total] = [scenariosDone, scenarios];
        seen[result.status] += 1;
        progress.update(scenarioProgress(seen, total, result));
        // Cucumber writes its summary once the last scenario is done: the progress ends first.
        if (done === total) progress.clear();
      },
    });
  } finally {
    process.off('SIGINT', interrupted);
    progress.clear();
    removeIfEmpty(directory);
  }
}
