import { resolve } from 'node:path';
import { formatSummary, ruleOutcomes } from '../../../harness/report/summary.js';
import { formatMarkdown } from '../../../harness/report/markdown.js';
import { conformanceBadge } from '../../../harness/report/badge.js';
import { judge, withOutcome, type Verdict } from '../../../harness/report/verdict.js';
import type { ScenarioResult } from '../../../harness/report/scenario-results.js';
import { readKnownFailures } from '../../../harness/baseline/known-failures.js';
import { parseShard } from '../../../harness/suite/shard.js';
import { lintKit } from '../lint/lint.js';
import { ExitCode } from '../../exit-codes.js';
import { KitInputError } from '../../../harness/input-error.js';
import { runtimeName } from '../../runtime-options.js';
import { runSuite } from '../../suite-run.js';
import { writeOutputFile } from '../../output-file.js';
import type { RunArgs } from './command.js';

export async function run(args: RunArgs): Promise<number> {
  const shard = args.shard === undefined ? undefined : parseShard(args.shard);
  const minVerdicts = args.minVerdicts === undefined ? 0 : parsePercent(args.minVerdicts);
  const suite = lintKit();
  // A malformed baseline is reported before anything runs.
  const baseline = args.baseline ? readKnownFailures(args.baseline, new Set(suite.flatMap((s) => s.ids))) : undefined;
  const results = await runSuite(args, {
    formats: [...args.format.map(fromUserDirectory), ...cucumberReports(args)],
    failFast: args.failFast,
    shard,
    bundles: args.bundles && resolve(args.bundles),
  });
  const name = runtimeName(args);
  const verdict = judge(results, baseline, minVerdicts);
  if (shard) process.stdout.write(`shard ${args.shard}: ${results.length} scenario(s) of the selection\n`);
  if (results.length > 0) process.stdout.write(`${formatSummary(results, name, verdict)}\n`);
  if (args.bundles && results.some((r) => r.status === 'failed')) {
    process.stdout.write(`repro bundles in ${args.bundles} (kit replay <bundle> --adapter/--runtime ... reruns one)\n`);
  }
  if (args.results) writeOutputFile(args.results, `${JSON.stringify(resultsDocument(name, results, verdict, args, minVerdicts), null, 2)}\n`);
  if (args.markdown) writeOutputFile(args.markdown, formatMarkdown(results, name, verdict));
  if (args.badge) writeOutputFile(args.badge, `${JSON.stringify(conformanceBadge(verdict))}\n`);
  return verdict.passed ? ExitCode.Passed : ExitCode.ConformanceFailure;
}

/** `--min-verdicts`: a share of rules in percent, `90` or `90%`. */
function parsePercent(value: string): number {
  const match = /^(\d+(?:\.\d+)?)%?$/.exec(value.trim());
  const percent = match ? Number(match[1]) : NaN;
  if (!(percent >= 0 && percent <= 100)) throw new KitInputError('--min-verdicts', `"${value}" is not a share of rules from 0% to 100%`);
  return percent;
}

/** Cucumber writes these itself; paths are taken from where the user stands, not the kit's root. */
function cucumberReports(args: RunArgs): string[] {
  const reports: [string, string | undefined][] = [
    ['junit', args.junit],
    ['message', args.messages],
    ['html', args.html],
  ];
  return reports.flatMap(([format, file]) => (file ? [fromUserDirectory(`${format}:${file}`)] : []));
}

/**
 * Cucumber runs in the kit's own directory, so a `--format` output file, or a formatter module
 * given as a relative path, is resolved against the user's working directory first.
 */
export function fromUserDirectory(format: string): string {
  const [name = '', ...rest] = format.replaceAll('"', '').split(':');
  const file = rest.join(':');
  const formatter = name.startsWith('.') ? resolve(name) : name;
  return file ? `"${formatter}":"${resolve(file)}"` : `"${formatter}"`;
}

function resultsDocument(runtime: string, results: ScenarioResult[], verdict: Verdict, args: RunArgs, minVerdicts: number) {
  const ids = (outcome: Parameters<typeof withOutcome>[1]) => withOutcome(verdict, outcome).map((s) => s.id);
  return {
    runtime,
    ...(args.shard ? { shard: args.shard } : {}),
    passed: verdict.passed,
    rules: Object.fromEntries(ruleOutcomes(results)),
    coverage: { ...verdict.coverage, minVerdicts, ...(verdict.shortfall ? { shortfall: verdict.shortfall } : {}) },
    ...(verdict.baseline
      ? {
          baseline: {
            file: verdict.baseline,
            expectedFailures: ids('expected-fail'),
            unexpectedPasses: ids('unexpected-pass'),
            unexpectedFailures: ids('unexpected-fail'),
          },
        }
      : {}),
    scenarios: results,
  };
}
