import type { ScenarioResult } from './scenario-results.js';
import { verdictOf, withStanding, type ScenarioVerdict, type Verdict } from './verdict.js';
import { clipped, requestExcerpt } from '../projection/render.js';
import { failureLines, isFailure, NOT_RUN } from './outcome.js';

/** How many scenarios the closing line names before it counts the rest. */
const NAMED_IN_CLOSING_LINE = 5;

/** A scenario as a failure names it: its rules, file and line, name and stable ID. */
function described(result: ScenarioResult): string {
  const rules = result.charged
    ? `${result.charged.join(' ')} (a check of a scenario of ${result.rules.join(' ')})`
    : result.rules.join(' ');
  return `${rules} ${result.uri}:${result.line} ${result.name} (@id:${result.id})`;
}

/** One failing scenario: a headline, the step that decided it, its first lines and the request that shows it. */
function failureEntry(headline: string, result: ScenarioResult, notes: string[] = []): string[] {
  return [
    `  ${headline}: ${described(result)}`,
    ...notes.map((note) => `      ${note}`),
    ...(result.step ? [`      at: ${result.step}`] : []),
    ...failureLines(result.message)
      .slice(0, 6)
      .map((line) => `      ${clipped(line, 400)}`),
    ...(result.request ? requestExcerpt(result.request).map((line) => `      ${line}`) : []),
    ...(result.alsoFailed ?? []).flatMap((later) => [
      `      also failed, ${later.rules.join(' ')}${later.step ? ` at: ${later.step}` : ''}`,
      ...failureLines(later.message)
        .slice(0, 3)
        .map((line) => `        ${clipped(line, 400)}`),
    ]),
  ];
}

/**
 * The failures of a run, what broke last. Without a baseline every failure broke something and
 * each is listed. With one, the failures it expects are counted (`verbose` lists them), and the
 * outcomes it does not expect (a failure it does not list, a listed scenario that passes or fails
 * otherwise) come last, each by name.
 */
export function failureListing(results: readonly ScenarioResult[], verdict: Verdict, verbose = false): string[] {
  // Scenarios the run did not start, once the runtime could not be driven, are one line, not one each.
  const notRun = results.filter((result) => failureLines(result.message)[0]?.startsWith(NOT_RUN));
  const failing = results.filter((result) => isFailure(result.status) && !notRun.includes(result));
  const skipped =
    notRun.length > 0
      ? [`  ✖ ${notRun.length} scenario(s) not run: ${failureLines(notRun[0]!.message)[0]!.slice(NOT_RUN.length + 1)}`]
      : [];
  if (!verdict.baseline)
    return failing.length + notRun.length === 0
      ? []
      : [
          '',
          'failing scenarios:',
          ...failing.flatMap((result) => failureEntry(`✖ ${result.status}`, result)),
          ...skipped,
        ];
  const standing = (result: ScenarioResult) => verdictOf(verdict, result);
  const expected = failing.filter((result) => standing(result)?.standing === 'expected-fail');
  const unexpected = failing.filter((result) => standing(result)?.standing !== 'expected-fail');
  const intermittent = withStanding(verdict, 'intermittent-pass');
  const stale = withStanding(verdict, 'unexpected-pass');
  const lines = ['', baselineCounts(verdict, expected.length, intermittent.length, stale.length, verbose)];
  if (verbose && expected.length + intermittent.length > 0)
    lines.push(
      '',
      'expected by the baseline:',
      ...expected.flatMap((result) =>
        failureEntry(`✔ ${result.status} as expected`, result, [`reason: ${standing(result)?.reason}`]),
      ),
      ...intermittent.map((s) => `  ✔ passed this time, fails on some runs: ${s.id} (${s.reason})`),
    );
  if (unexpected.length + stale.length > 0)
    lines.push(
      '',
      'not as the baseline expects:',
      ...stale.map((s) => `  ✖ passes now, remove it from the baseline: ${s.id} (${s.result.uri}:${s.result.line})`),
      ...unexpected.flatMap((result) => {
        const mismatch = standing(result)?.mismatch;
        return mismatch
          ? failureEntry(`✖ ${result.status}, not as the baseline lists it`, result, [mismatch])
          : failureEntry(`✖ ${result.status}, and the baseline does not list it`, result);
      }),
    );
  return lines;
}

function baselineCounts(
  verdict: Verdict,
  expected: number,
  intermittent: number,
  stale: number,
  verbose: boolean,
): string {
  const unexpected = withStanding(verdict, 'unexpected-fail').length;
  return (
    `baseline ${verdict.baseline}: ${expected} expected failure(s), ${stale} unexpected pass(es), ${unexpected} unexpected failure(s)` +
    (intermittent ? `, ${intermittent} intermittent failure(s) that passed this time` : '') +
    (!verbose && expected + intermittent > 0 ? '; --verbose lists the expected ones' : '')
  );
}

/**
 * The scenarios whose outcome the baseline does not expect, named for the closing line (the first
 * few, then how many more): what broke, without scrolling back.
 */
export function notAsExpected(verdict: Verdict): string | undefined {
  if (!verdict.baseline) return undefined;
  const named = verdict.scenarios.flatMap((scenario: ScenarioVerdict) =>
    scenario.standing === 'unexpected-pass'
      ? [`${scenario.id} passes now`]
      : scenario.standing === 'unexpected-fail'
        ? [`${scenario.id} ${scenario.outcome}`]
        : [],
  );
  if (named.length === 0) return undefined;
  const more = named.length - NAMED_IN_CLOSING_LINE;
  return `not as the baseline expects: ${named.slice(0, NAMED_IN_CLOSING_LINE).join(', ')}${more > 0 ? ` and ${more} more` : ''}`;
}
