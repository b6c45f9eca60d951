import { existsSync } from 'node:fs';
import {
  formatKnownFailures,
  readKnownFailures,
  type BaselineEntry,
  type KnownFailure,
} from '../../../harness/baseline/known-failures.js';
import { failureLines, formatSummary } from '../../../harness/report/summary.js';
import { judge } from '../../../harness/report/verdict.js';
import { isFailure } from '../../../harness/report/outcome.js';
import { entryComment } from '../../../harness/baseline/stale-entries.js';
import { lintKit } from '../lint/lint.js';
import { stableIds } from '../../../harness/suite/suite-index.js';
import { ExitCode } from '../../exit-codes.js';
import { runExitCode } from '../../run-outcome.js';
import { runtimeName } from '../../runtime-options.js';
import { discardKept } from '../../run-directory.js';
import { runSuite } from '../../suite-run.js';
import { checkOutputPath, writeOutputFile } from '../../output-file.js';
import type { BaselineArgs } from './command.js';
import { suiteSettings } from '../../../harness/suite/suite-settings.js';

/**
 * Writes the failing scenarios as known failures. An entry already in the file keeps its reason
 * while its scenario still fails, and stays as it is when its scenario was not selected; a new
 * entry's reason is its failure, to be replaced by why the failure is accepted. An entry naming an
 * outline stays one while a row of it fails; otherwise each failing example row gets its own.
 */
export async function writeBaseline(args: BaselineArgs): Promise<number> {
  const output = { flag: '--write', path: args.write };
  checkOutputPath(output);
  const suite = new Map(lintKit().flatMap((scenario) => stableIds(scenario).map((id) => [id, scenario] as const)));
  const previous = existsSync(args.write)
    ? readKnownFailures(args.write, new Set(suite.keys())).entries
    : new Map<string, KnownFailure>();
  const results = await runSuite(args, { formats: [], failFast: false });
  const verdict = judge(results);
  // The failures become the baseline; their files are not needed.
  discardKept(results, () => false);
  process.stdout.write(`${formatSummary(results, runtimeName(args), verdict)}\n`);
  // A runtime the kit could not drive has no known failures yet: nothing is written.
  // A scenario that errored is no known failure: it says nothing about the rule. Nothing is written.
  const errored = results.filter((result) => result.status === 'errored');
  if (errored.length > 0) {
    process.stdout.write(`baseline: nothing written to ${args.write}\n`);
    return runExitCode(false, errored);
  }
  const ran = new Set(results.flatMap((result) => [result.id, ...(result.outline ? [result.outline] : [])]));
  const failing = judge(results, { file: args.write, entries: previous }).scenarios.filter((scenario) =>
    isFailure(scenario.outcome),
  );
  // An entry of other dialects than this run's says nothing of this run: it stays as it is.
  const dialect = suiteSettings().dialect;
  const known = new Map<string, KnownFailure>([
    ...[...previous].filter(([id, entry]) => !ran.has(id) || (entry.dialects && !entry.dialects.includes(dialect))),
    ...failing.map(({ id, outcome, result }) => {
      const kind = outcome === 'not implemented' ? 'not-implemented' : 'deviation';
      const before = previous.get(id);
      // A new entry's reason is its failure, its scenario's own: no two entries share one.
      const reason = before?.class === kind ? before.reason : `${id} fails: ${summaryOf(result.message)}`;
      return [id, { class: kind, reason }] as const;
    }),
  ]);
  const entries = [...known].map(([id, entry]): BaselineEntry => {
    const scenario = suite.get(id)!;
    return {
      id,
      ...entry,
      comment: entryComment(scenario, id),
    };
  });
  writeOutputFile(output, formatKnownFailures(entries));
  process.stdout.write(`baseline: ${entries.length} known failure(s) written to ${args.write}\n`);
  return ExitCode.Passed;
}

const SUMMARY_AT_MOST = 160;

/** A failure message on one line, short enough to read as a reason. */
function summaryOf(message: string | undefined): string {
  const line = failureLines(message)
    .map((text) => text.trim())
    .filter(Boolean)
    .join(' ');
  // Cut where the reader can see it was cut.
  return line.length > SUMMARY_AT_MOST ? `${line.slice(0, SUMMARY_AT_MOST - 1)}…` : line;
}
