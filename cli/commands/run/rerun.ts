import { KitInputError } from '../../../harness/input-error.js';
import { inputError, readJsonInput } from '../../../harness/input/json-input.js';
import { isFailure, OUTCOMES, type Outcome } from '../../../harness/report/outcome.js';

/**
 * The scenarios to run again: the stable IDs of those that failed, were not implemented or errored
 * in a results file written by `kit run --results` (a scenario, an outline or one example row);
 * undefined when none failed. Failed scenarios
 * the suite no longer has are named on stderr, and a file of only such scenarios is refused.
 */
export function rerunSelection(path: string, suiteIds: ReadonlySet<string>): string[] | undefined {
  const failed = failedScenarios(path);
  const gone = failed.filter((id) => !suiteIds.has(id));
  if (gone.length > 0 && gone.length === failed.length)
    throw new KitInputError(
      '--rerun',
      `none of the ${failed.length} failed scenario(s) of ${path} is in the suite any more: ${gone.join(', ')}`,
    );
  if (gone.length > 0)
    process.stderr.write(`kit: --rerun: not in the suite any more, so not run: ${gone.join(', ')}\n`);
  const kept = failed.filter((id) => suiteIds.has(id));
  return kept.length === 0 ? undefined : kept;
}

/** The stable IDs of the failing scenarios of a results file, each once. */
function failedScenarios(path: string): string[] {
  const input = readJsonInput(path);
  const scenarios = (input.value as { scenarios?: unknown } | null)?.scenarios;
  if (!Array.isArray(scenarios))
    throw new KitInputError(input.file, 'scenarios: is required: give a results file written by kit run --results');
  const failed = scenarios.flatMap((scenario: unknown, i) => {
    const { id, status } = (scenario ?? {}) as { id?: unknown; status?: unknown };
    if (typeof id !== 'string' || !/^[\w.-]+(\/[\w-]+)?$/.test(id) || typeof status !== 'string') {
      throw inputError(input, ['scenarios', i], 'expected a scenario result with an id and a status');
    }
    return (OUTCOMES as readonly string[]).includes(status) && isFailure(status as Outcome) ? [id] : [];
  });
  return [...new Set(failed)];
}
