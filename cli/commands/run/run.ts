import { rulesNamedBy } from '../../scenario-selection.js';
import { resolve } from 'node:path';
import { formatSummary, notDrivenSummary } from '../../../harness/report/summary.js';
import { formatMarkdown } from '../../../harness/report/markdown.js';
import { conformanceBadge } from '../../../harness/report/badge.js';
import { junitReport } from '../../../harness/report/junit.js';
import { runPage } from '../../../harness/report/run-page.js';
import { judge, verdictOf, withStanding, type Verdict } from '../../../harness/report/verdict.js';
import type { ScenarioResult } from '../../../harness/report/scenario-results.js';
import { isFailure } from '../../../harness/report/outcome.js';
import { readKnownFailures } from '../../../harness/baseline/known-failures.js';
import { shardName } from '../../../harness/suite/shard.js';
import { lintKit } from '../lint/lint.js';
import { stableIds } from '../../../harness/suite/suite-index.js';
import { runExitCode } from '../../run-outcome.js';
import { ExitCode } from '../../exit-codes.js';
import { KitInputError } from '../../../harness/input-error.js';
import { rerunSelection } from './rerun.js';
import { runtimeName } from '../../runtime-options.js';
import { runSuite } from '../../suite-run.js';
import { discardKept, keptLine, recordKept } from '../../run-directory.js';
import { checkOutputPath, unwritableReport, writeOutputFile, type OutputPath } from '../../output-file.js';
import { formatDescriptor, type CucumberFormat } from './cucumber-formats.js';
import type { RunArgs } from './command.js';
import { didYouMean, nearRules } from '../../nearest.js';
import { suiteSettings } from '../../../harness/suite/suite-settings.js';
import { ruleStandings } from '../../../harness/report/rule-standings.js';
import { readClauses } from '../../../harness/suite/clauses.js';
import { kitPath } from '../../../harness/kit-root.js';

export async function run(args: RunArgs): Promise<number> {
  const { shard } = args;
  const minVerdicts = args.minVerdicts === undefined ? 0 : parseShare(args.minVerdicts);
  for (const output of fileOutputs(args)) checkOutputPath(output);
  if (args.bundles) checkOutputPath({ flag: '--bundles', path: args.bundles }, 'directory');
  const suite = lintKit();
  const suiteIds = new Set(suite.flatMap(stableIds));
  const checked = [...new Set(suite.flatMap((scenario) => scenario.rules))];
  const unknownRules = (args.rule ?? []).filter((rule) => !checked.includes(rule));
  if (unknownRules.length > 0)
    throw new KitInputError(
      '--rule',
      `no scenario of the suite checks ${unknownRules.join(', ')}${didYouMean(nearRules(unknownRules[0]!, checked))} (rules/index.md lists the rules)`,
    );
  const rerun = args.rerun === undefined ? undefined : rerunSelection(args.rerun, suiteIds);
  if (args.rerun && !rerun) {
    process.stdout.write(`no scenario failed in ${args.rerun}: nothing to rerun\n`);
    return ExitCode.Passed;
  }
  // A malformed baseline is reported before anything runs.
  const baseline = args.baseline ? readKnownFailures(args.baseline, suiteIds, suiteSettings().dialect) : undefined;
  const formats = [...(args.format ?? []), ...cucumberReports(args)];
  const results = await runSuite(args, {
    formats: formats.map(formatDescriptor),
    failFast: args.failFast,
    shard,
    ...(rerun ? { ids: rerun } : {}),
    selectedBy:
      [args.tags && '--tags', args.rule && '--rule', args.rerun && '--rerun'].filter(Boolean).join(' with ') ||
      undefined,
    bundles: args.bundles && resolve(args.bundles),
  }).catch((error: unknown) => {
    throw unwritableReport(
      error,
      formats.flatMap((format) => (format.output ? [format.output] : [])),
    );
  });
  const name = runtimeName(args);
  const verdict = judge(results, baseline, minVerdicts, args.rule ?? rulesNamedBy(args.tags));
  // Only an unexpected failure's files are worth a look; the baseline's failures would pile up.
  const worthKeeping = (result: ScenarioResult) =>
    verdictOf(verdict, result)?.standing === 'unexpected-fail' && isFailure(result.status);
  discardKept(results, worthKeeping);
  writeReports(args, name, results, verdict, minVerdicts);
  const kept = results.filter((result) => worthKeeping(result) && result.kept);
  const keptIn = recordKept(kept);
  const keptNote = keptIn ? `${keptLine(keptIn, kept.length)}\n` : '';
  const notDriven = notDrivenSummary(results, name);
  if (notDriven) {
    process.stdout.write(`${notDriven}\n${keptNote}`);
    return ExitCode.RuntimeNotDriven;
  }
  if (shard) process.stdout.write(`shard ${shardName(shard)}: ${results.length} scenario(s) of the selection\n`);
  if (results.length > 0) process.stdout.write(`${formatSummary(results, name, verdict, args.verbose)}\n`);
  process.stdout.write(`${otherProfileHint(args, results)}${keptNote}`);
  if (args.bundles && results.some((r) => isFailure(r.status))) {
    process.stdout.write(`repro bundles in ${args.bundles} (kit replay <bundle> --adapter/--runtime ... reruns one)\n`);
  }
  return runExitCode(
    verdict.passed,
    withStanding(verdict, 'unexpected-fail').map((scenario) => scenario.result),
  );
}

/** The report files the user asked for, written from the run's outcomes. */
function writeReports(args: RunArgs, name: string, results: ScenarioResult[], verdict: Verdict, minVerdicts: number) {
  if (args.results)
    writeOutputFile(
      { flag: '--results', path: args.results },
      `${JSON.stringify(resultsDocument(name, results, verdict, args, minVerdicts), null, 2)}\n`,
    );
  if (args.markdown)
    writeOutputFile({ flag: '--markdown', path: args.markdown }, formatMarkdown(results, name, verdict));
  if (args.badge)
    writeOutputFile({ flag: '--badge', path: args.badge }, `${JSON.stringify(conformanceBadge(verdict))}\n`);
  if (args.junit) writeOutputFile({ flag: '--junit', path: args.junit }, junitReport(results));
  if (args.html) writeOutputFile({ flag: '--html', path: args.html }, runPage(results, name, verdict));
}

/**
 * `--min-verdicts`: a percentage (`90%`) or a fraction (`0.9`). A bare number above 1 could be
 * either (`90` as 90%, or a typo for 0.9), so it is refused rather than guessed.
 */
function parseShare(value: string): number {
  const text = value.trim();
  const percent = /^(\d+(?:\.\d+)?)%$/.exec(text);
  const fraction = /^(\d+(?:\.\d+)?)$/.exec(text);
  const share = percent ? Number(percent[1]) : fraction ? Number(fraction[1]) * 100 : NaN;
  if (fraction && Number(fraction[1]) > 1)
    throw new KitInputError(
      '--min-verdicts',
      `"${value}" is ambiguous: write ${text}% for a percentage, or a fraction from 0 to 1`,
    );
  if (!(share >= 0 && share <= 100))
    throw new KitInputError(
      '--min-verdicts',
      `"${value}" is not a share of rules: a percentage from 0% to 100%, or a fraction from 0 to 1`,
    );
  return share;
}

/** The reports Cucumber writes itself; the kit writes the JUnit XML and the HTML page from the outcomes. */
function cucumberReports(args: RunArgs): CucumberFormat[] {
  const reports: [string, string, string | undefined][] = [['message', '--messages', args.messages]];
  return reports.flatMap(([type, flag, path]) => (path ? [{ type, output: { flag, path } }] : []));
}

/** Every file the run will write, to be checked before anything runs. */
function fileOutputs(args: RunArgs): OutputPath[] {
  const own: [string, string | undefined][] = [
    ['--results', args.results],
    ['--markdown', args.markdown],
    ['--badge', args.badge],
    ['--junit', args.junit],
    ['--html', args.html],
  ];
  return [
    ...own.flatMap(([flag, path]) => (path ? [{ flag, path }] : [])),
    ...[...(args.format ?? []), ...cucumberReports(args)].flatMap((format) => (format.output ? [format.output] : [])),
  ];
}

function resultsDocument(
  runtime: string,
  results: ScenarioResult[],
  verdict: Verdict,
  args: RunArgs,
  minVerdicts: number,
) {
  const ids = (standing: Parameters<typeof withStanding>[1]) => withStanding(verdict, standing).map((s) => s.id);
  return {
    runtime,
    ...(args.shard ? { shard: shardName(args.shard) } : {}),
    passed: verdict.passed,
    rules: verdict.coverage.outcomes,
    shares: judgedShares(results, Object.keys(verdict.coverage.outcomes)),
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

/** Per rule, how many of its scenarios and clauses gave it a verdict: what an outcome rests on. */
function judgedShares(results: ScenarioResult[], rules: string[]) {
  const standings = ruleStandings(results, new Map(), readClauses(kitPath('rules', 'index.md')).clauses);
  return Object.fromEntries(
    rules.map((rule) => [rule, { scenarios: standings[rule]?.scenarios, clauses: standings[rule]?.clauses }]),
  );
}

/**
 * The built-in reference runs one profile per run: where scenarios of another were set aside, say
 * how to run them, since nothing else on the screen does.
 */
function otherProfileHint(args: RunArgs, results: ScenarioResult[]): string {
  if (args.adapter || args.runtime) return '';
  const profiles = new Set(
    results.flatMap((result) => /^needs profile (.+)$/.exec(result.reason ?? '')?.[1]?.split(' or ') ?? []),
  );
  if (profiles.size === 0) return '';
  const wanted = [...profiles].map((profile) => `REFERENCE_PROFILE=${profile}`).join(' or ');
  return `the built-in reference ran profile ${process.env.REFERENCE_PROFILE ?? 'core'}: run again with ${wanted} for the scenarios of another\n`;
}
