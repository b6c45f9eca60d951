import type { ScenarioResult } from '../harness/report/scenario-results.js';
import { ExitCode } from './exit-codes.js';

/**
 * How a run of scenarios ends: a failure the kit could not drive the runtime for outranks a
 * conformance failure, since it is the adapter to fix first and the verdicts wait on it. `failed`
 * are the failures that count (those the baseline does not accept).
 */
export function runExitCode(
  passed: boolean,
  failed: readonly ScenarioResult[],
  out: NodeJS.WritableStream = process.stdout,
): number {
  if (passed) return ExitCode.Passed;
  const notDriven = failed.filter((result) => result.status === 'errored');
  if (notDriven.length === 0) return ExitCode.ConformanceFailure;
  out.write(
    `${notDriven.length} of ${failed.length} failing scenario(s) errored: the runtime could not be driven ` +
      `(the adapter did not start, died, broke the protocol or did not answer) or the suite is at fault: fix that first (exit code ${ExitCode.RuntimeNotDriven})\n`,
  );
  return ExitCode.RuntimeNotDriven;
}
