import { KitInputError } from '../../../harness/input-error.js';
import { inputError, readJsonInput } from '../../../harness/input/json-input.js';
import { isFailure, OUTCOMES, type Outcome } from '../../../harness/report/outcome.js';

/**
 * The stable IDs of the scenarios that failed, were not implemented or errored in a results file written by `kit run --results`,
 * as a tag expression selecting them again; undefined when none failed.
 */
export function failedScenarios(path: string): string | undefined {
  const input = readJsonInput(path);
  const scenarios = (input.value as { scenarios?: unknown } | null)?.scenarios;
  if (!Array.isArray(scenarios))
    throw new KitInputError(input.file, 'scenarios: is required: give a results file written by kit run --results');
  const failed = scenarios.flatMap((scenario: unknown, i) => {
    const { id, status } = (scenario ?? {}) as { id?: unknown; status?: unknown };
    if (typeof id !== 'string' || !/^[\w.-]+$/.test(id) || typeof status !== 'string') {
      throw inputError(input, ['scenarios', i], 'expected a scenario result with an id and a status');
    }
    return (OUTCOMES as readonly string[]).includes(status) && isFailure(status as Outcome) ? [id] : [];
  });
  return failed.length === 0 ? undefined : [...new Set(failed)].map((id) => `@id:${id}`).join(' or ');
}
