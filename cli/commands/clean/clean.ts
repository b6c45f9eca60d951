import { removeKeptRuns } from '../../run-directory.js';
import { suiteSettings } from '../../../harness/suite/suite-settings.js';
import { ExitCode } from '../../exit-codes.js';

/** Removes what finished runs kept for their failed scenarios, and says what it removed. */
export function clean(): number {
  const root = suiteSettings().scenarioRoot;
  const removed = removeKeptRuns(root);
  process.stdout.write(
    removed.length === 0
      ? `nothing kept by a failed run in ${root}\n`
      : `removed ${removed.length} run director${removed.length === 1 ? 'y' : 'ies'} kept for failed scenarios:\n${removed.map((d) => `  ${d}\n`).join('')}`,
  );
  return ExitCode.Passed;
}
