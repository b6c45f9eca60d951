import type { ScenarioResult } from './scenario-results.js';
import { verdictOf, type Verdict } from './verdict.js';
import { clipped } from '../projection/render.js';
import { failureListing, notAsExpected } from './failure-listing.js';
import { timeoutAdvice } from './timeout-advice.js';
import { rulesByReason, rulesOf, verdictPercent, type Coverage } from './coverage.js';
import { failureLines, isFailure, NOT_RUN, OUTCOMES, type Outcome } from './outcome.js';
import { minorityPasses } from './judged-share.js';

/** How many scenarios had each outcome. */
export type Tally = Record<Outcome, number>;

export function tally(results: readonly ScenarioResult[]): Tally {
  const counts = Object.fromEntries(OUTCOMES.map((outcome) => [outcome, 0])) as Tally;
  for (const result of results) counts[result.status] += 1;
  return counts;
}

/** One rule area's line of the summary table. */
export interface AreaRow {
  area: string;
  tally: Tally;
  scenarios: number;
  rulesPassed: number;
  rules: number;
}

/**
 * The area table's rows. A rule is counted once, with its outcome over all its scenarios, in the
 * area that holds most of them (the first by name on a tie): a scenario tagged with a rule of
 * another area as well would otherwise count that rule in both.
 */
export function areaRows(results: ScenarioResult[], coverage: Coverage): AreaRow[] {
  const outcomes = Object.entries(coverage.outcomes);
  const home = homeAreas(results);
  return [...new Set(results.map((r) => r.area))].sort().map((area) => {
    const inArea = results.filter((r) => r.area === area);
    const rules = outcomes.filter(([rule]) => home.get(rule) === area);
    const rulesPassed = rules.filter(([, outcome]) => outcome === 'passed').length;
    return { area, scenarios: inArea.length, tally: tally(inArea), rulesPassed, rules: rules.length };
  });
}

/** Each rule's area: the one holding most of its scenarios in the run, the first by name on a tie. */
function homeAreas(results: readonly ScenarioResult[]): Map<string, string> {
  const counts = new Map<string, Map<string, number>>();
  for (const result of results) {
    for (const rule of rulesOf(result)) {
      const byArea = counts.get(rule) ?? new Map<string, number>();
      byArea.set(result.area, (byArea.get(result.area) ?? 0) + 1);
      counts.set(rule, byArea);
    }
  }
  return new Map(
    [...counts].map(([rule, byArea]) => {
      const [area] = [...byArea].sort(([a, m], [b, n]) => n - m || a.localeCompare(b))[0]!;
      return [rule, area];
    }),
  );
}

export { failureLines };

/**
 * A run where no scenario could drive the runtime (its adapter does not start, say) judged nothing:
 * one line says so, with the first scenario's error and the adapter's last words (and what its
 * timeouts suggest), instead of a table of rules without a verdict.
 */
export function notDrivenSummary(results: readonly ScenarioResult[], runtime: string): string | undefined {
  // A scenario set aside for what the runtime does not declare says nothing of driving it.
  const ran = results.filter((result) => result.status !== 'not applicable');
  if (ran.length === 0 || ran.some((result) => result.status !== 'errored')) return undefined;
  const [headline = 'no error was reported', ...detail] = failureLines(ran[0]!.message);
  const advice = timeoutAdvice(ran);
  const tried = ran.filter((result) => !failureLines(result.message)[0]?.startsWith(NOT_RUN)).length;
  const rest = ran.length - tried;
  const scope =
    rest > 0 ? `the ${tried} scenario(s) it tried (the other ${rest} were not run)` : `the ${tried} selected scenarios`;
  return [
    `errored: ${runtime} could not be driven in any of ${scope}, so no rule got a verdict: ${headline}`,
    ...detail.slice(0, 20).map((line) => `  ${clipped(line, 400)}`),
    ...(advice ? [advice] : []),
  ].join('\n');
}

/**
 * The closing summary of a run: per rule area, the rules with a verdict and without, then what
 * broke (the failures, or with a baseline the outcomes it does not expect: `verbose` lists those it
 * does), and totals naming what broke.
 */
export function formatSummary(results: ScenarioResult[], runtime: string, verdict: Verdict, verbose = false): string {
  const rows = areaRows(results, verdict.coverage);
  const width = Math.max(4, ...rows.map((row) => row.area.length));
  const columns = AREA_COLUMNS.map(([heading]) => heading);
  const lines = [`runtime: ${runtime}`, '', `${'area'.padEnd(width)}  scenarios  ${columns.join('  ')}  rules passed`];
  for (const row of rows) {
    const cells = AREA_COLUMNS.map(([heading, count]) => String(count(row.tally)).padStart(heading.length));
    lines.push(
      `${row.area.padEnd(width)}  ${String(row.scenarios).padStart(9)}  ${cells.join('  ')}  ${row.rulesPassed}/${row.rules}`,
    );
  }
  lines.push('', ...coverageLines(verdict.coverage, results));
  if (verdict.shortfall) lines.push(`✖ ${verdict.shortfall}`);
  const advice = timeoutAdvice(results);
  const listing = [...failureListing(results, verdict, verbose), ...(advice ? ['', advice] : [])];
  // The closing line stands apart from the last failure's request.
  lines.push(...listing, ...(listing.length > 0 ? [''] : []), closingLine(results, verdict));
  return lines.join('\n');
}

/** The area table's outcome columns: a heading and the count it shows. */
const AREA_COLUMNS: [string, (tally: Tally) => number][] = [
  ['passed', (t) => t.passed],
  ['failed', (t) => t.failed],
  ['not impl.', (t) => t['not implemented']],
  ['errored', (t) => t.errored],
  ['not judged', (t) => t['not judged']],
  ['n/a', (t) => t['not applicable']],
];

/**
 * The scenarios of the outcomes that fail a run, each counted apart, as the outcomes are separate:
 * failed always (CI systems read "N passed, N failed"), not implemented and errored where any.
 */
export function failingCounts(t: Tally): string {
  const apart = (['not implemented', 'errored'] as const).filter((o) => t[o] > 0).map((o) => `${t[o]} ${o}`);
  return [`${t.failed} failed`, ...apart].join(', ');
}

/** The closing line: "N passed, N failed" first, then the other outcomes and what the baseline expected. */
export function closingLine(results: readonly ScenarioResult[], verdict: Verdict): string {
  const t = tally(results);
  const failing = t.failed + t['not implemented'] + t.errored;
  // Counted in scenarios, as the failures are: a baseline entry naming an outline covers its rows.
  const expectedRows = results.filter(
    (r) => isFailure(r.status) && verdictOf(verdict, r)?.standing === 'expected-fail',
  ).length;
  // "of them" would read as the last count alone where more than one kind of failure is counted.
  const ofThem = failing === Math.max(t.failed, t['not implemented'], t.errored) ? 'of them' : `of the ${failing}`;
  const expected = verdict.baseline
    ? expectedRows === failing
      ? failing > 0
        ? `, all expected by the baseline`
        : ''
      : `, ${expectedRows} ${ofThem} expected by the baseline`
    : '';
  const without = (['not applicable', 'not judged'] as const).filter((o) => t[o] > 0).map((o) => `${t[o]} ${o}`);
  const broke = notAsExpected(verdict);
  return (
    `conformance: ${t.passed} passed, ${failingCounts(t)}${expected}` +
    (without.length ? `, ${without.join(', ')}` : '') +
    (broke ? `; ${broke}` : '')
  );
}

/** Rules with a verdict and without, and why each without one got none. */
function coverageLines(coverage: Coverage, results: readonly ScenarioResult[]): string[] {
  const listed = (outcome: Outcome, rules: string[]) =>
    rules.length ? `, ${rules.length} ${outcome} (${rules.join(' ')})` : '';
  const { passed, failed, notImplemented, errored, notJudged } = coverage;
  const without = Object.keys(coverage.withoutVerdict).length - errored.length - notJudged.length;
  const lines = [
    `rules: ${passed.length} passed, ${failed.length} failed${failed.length ? ` (${failed.join(' ')})` : ''}` +
      listed('not implemented', notImplemented) +
      listed('errored', errored) +
      listed('not judged', notJudged) +
      (without ? `, ${without} not applicable` : ''),
  ];
  for (const [reason, rules] of rulesByReason(coverage)) lines.push(`  no verdict, ${reason}: ${rules.join(' ')}`);
  const thin = minorityPasses(results, coverage.outcomes);
  if (thin.length > 0) lines.push(`  passed on a minority of their scenarios: ${thin.join(', ')}`);
  lines.push(`verdicts: ${coverage.withVerdict} of ${coverage.rules} rules (${verdictPercent(coverage)}%)`);
  return lines;
}
