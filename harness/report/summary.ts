import type { ScenarioResult } from './scenario-results.js';
import { withOutcome, type Verdict } from './verdict.js';
import { requestExcerpt } from '../projection/render.js';
import { rulesByReason, verdictPercent, type Coverage } from './coverage.js';

interface Tally {
  passed: number;
  failed: number;
  notApplicable: number;
}

const tally = (results: ScenarioResult[]): Tally => ({
  passed: results.filter((r) => r.status === 'passed').length,
  failed: results.filter((r) => r.status === 'failed').length,
  notApplicable: results.filter((r) => r.status === 'not-applicable').length,
});

export type RuleOutcome = 'passed' | 'failed' | 'not-applicable';

/** A rule fails when any of its scenarios fails, and passes when any passes and none fails. */
export function ruleOutcomes(results: ScenarioResult[]): Map<string, RuleOutcome> {
  const outcomes = new Map<string, RuleOutcome>();
  for (const result of results) {
    for (const rule of result.rules) {
      const before = outcomes.get(rule);
      if (result.status === 'failed' || before === 'failed') outcomes.set(rule, 'failed');
      else if (result.status === 'passed' || before === 'passed') outcomes.set(rule, 'passed');
      else outcomes.set(rule, 'not-applicable');
    }
  }
  return new Map([...outcomes].sort(([a], [b]) => a.localeCompare(b)));
}

/** One rule area's line of the summary table. */
export interface AreaRow extends Tally {
  area: string;
  scenarios: number;
  rulesPassed: number;
  rules: number;
}

export function areaRows(results: ScenarioResult[]): AreaRow[] {
  return [...new Set(results.map((r) => r.area))].sort().map((area) => {
    const inArea = results.filter((r) => r.area === area);
    const rules = ruleOutcomes(inArea);
    const rulesPassed = [...rules.values()].filter((o) => o === 'passed').length;
    return { area, scenarios: inArea.length, ...tally(inArea), rulesPassed, rules: rules.size };
  });
}

/** A failure message without the kit's own stack frames, which say nothing about the runtime. */
export function failureLines(message: string | undefined): string[] {
  const lines = (message ?? '').split('\n').filter((line) => !/^\s+at /.test(line));
  return lines.join('\n').trimEnd().split('\n');
}

/** The closing summary of a run: per rule area, the failing scenarios, the baseline, and totals. */
export function formatSummary(results: ScenarioResult[], runtime: string, verdict: Verdict): string {
  const rows = areaRows(results);
  const width = Math.max(4, ...rows.map((row) => row.area.length));
  const lines = [`runtime: ${runtime}`, '', `${'area'.padEnd(width)}  scenarios  passed  failed  n/a  rules passed`];
  for (const row of rows) {
    const cells = [row.scenarios, row.passed, row.failed, row.notApplicable].map(String);
    lines.push(
      `${row.area.padEnd(width)}  ${cells[0]!.padStart(9)}  ${cells[1]!.padStart(6)}  ${cells[2]!.padStart(6)}  ${cells[3]!.padStart(3)}  ${row.rulesPassed}/${row.rules}`,
    );
  }
  const failed = results.filter((r) => r.status === 'failed');
  if (failed.length > 0) {
    const reasons = new Map(verdict.scenarios.map((s) => [s.id, s.reason]));
    lines.push('', 'failed scenarios:');
    for (const r of failed) {
      const accepted = reasons.get(r.id) === undefined ? '' : ' [in the baseline]';
      const notDriven = r.notDriven ? ' [the runtime could not be driven]' : '';
      lines.push(`  ✖ ${r.rules.join(' ')} ${r.uri}:${r.line} ${r.name} (@id:${r.id})${accepted}${notDriven}`);
      lines.push(`      ${failureLines(r.message).slice(0, 6).join('\n      ')}`);
      if (r.request) lines.push(...requestExcerpt(r.request).map((line) => `      ${line}`));
    }
  }
  if (verdict.baseline) lines.push('', ...baselineLines(verdict));
  const t = tally(results);
  lines.push('', ...coverageLines(verdict.coverage));
  if (verdict.shortfall) lines.push(`✖ ${verdict.shortfall}`);
  // The closing line: CI systems read "N passed, N failed" from it.
  const expected = verdict.baseline
    ? `, ${withOutcome(verdict, 'expected-fail').length} of them expected by the baseline`
    : '';
  lines.push(
    `conformance: ${t.passed} passed, ${t.failed} failed${expected}${t.notApplicable ? `, ${t.notApplicable} skipped (not applicable)` : ''}`,
  );
  return lines.join('\n');
}

/** Rules with a verdict and without, and why each without one got none. */
function coverageLines(coverage: Coverage): string[] {
  const { passed, failed, notImplemented, withoutVerdict } = coverage;
  const without = Object.keys(withoutVerdict).length;
  const lines = [
    `rules: ${passed.length} passed, ${failed.length} failed${failed.length ? ` (${failed.join(' ')})` : ''}` +
      (notImplemented.length ? `, ${notImplemented.length} not implemented (${notImplemented.join(' ')})` : '') +
      (without ? `, ${without} without a verdict` : ''),
  ];
  for (const [reason, rules] of rulesByReason(coverage)) lines.push(`  no verdict, ${reason}: ${rules.join(' ')}`);
  lines.push(`verdicts: ${coverage.withVerdict} of ${coverage.rules} rules (${verdictPercent(coverage)}%)`);
  return lines;
}

function baselineLines(verdict: Verdict): string[] {
  const expected = withOutcome(verdict, 'expected-fail');
  const stale = withOutcome(verdict, 'unexpected-pass');
  const unexpected = withOutcome(verdict, 'unexpected-fail');
  return [
    `baseline ${verdict.baseline}: ${expected.length} expected failure(s), ${stale.length} unexpected pass(es), ${unexpected.length} unexpected failure(s)`,
    ...expected.map((s) => `  ✔ fails as expected: ${s.id} (${s.reason})`),
    ...stale.map((s) => `  ✖ passes now, remove it from the baseline: ${s.id}`),
    ...unexpected.map((s) => `  ✖ fails, and the baseline does not list it: ${s.id}`),
  ];
}
