import type { ScenarioResult } from './scenario-results.js';

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

/** The closing summary of a run: per rule area, the failing rules with their scenarios, and totals. */
export function formatSummary(results: ScenarioResult[], runtime: string): string {
  const areas = [...new Set(results.map((r) => r.area))].sort();
  const width = Math.max(4, ...areas.map((a) => a.length));
  const lines = [`runtime: ${runtime}`, '', `${'area'.padEnd(width)}  scenarios  passed  failed  n/a  rules passed`];
  for (const area of areas) {
    const inArea = results.filter((r) => r.area === area);
    const rules = ruleOutcomes(inArea);
    const rulesPassed = [...rules.values()].filter((o) => o === 'passed').length;
    const t = tally(inArea);
    lines.push(
      `${area.padEnd(width)}  ${String(inArea.length).padStart(9)}  ${String(t.passed).padStart(6)}  ${String(t.failed).padStart(6)}  ${String(t.notApplicable).padStart(3)}  ${rulesPassed}/${rules.size}`,
    );
  }
  const failed = results.filter((r) => r.status === 'failed');
  if (failed.length > 0) {
    lines.push('', 'failed scenarios:');
    for (const r of failed) {
      lines.push(`  ✖ ${r.rules.join(' ')} ${r.uri}:${r.line} ${r.name} (@id:${r.id})`);
      // The kit's own stack frames say nothing about the runtime; the message lines do.
      const message = (r.message ?? '').split('\n').filter((line) => !/^\s+at /.test(line));
      lines.push(`      ${message.slice(0, 4).join('\n      ')}`);
    }
  }
  const rules = ruleOutcomes(results);
  const named = (outcome: RuleOutcome) => [...rules].filter(([, o]) => o === outcome).map(([rule]) => rule);
  const [passedRules, failedRules, naRules] = [named('passed'), named('failed'), named('not-applicable')];
  const t = tally(results);
  lines.push('');
  lines.push(
    `rules: ${passedRules.length} passed, ${failedRules.length} failed${failedRules.length ? ` (${failedRules.join(' ')})` : ''}` +
      (naRules.length ? `, ${naRules.length} not applicable` : ''),
  );
  // The closing line: CI systems read "N passed, N failed" from it.
  lines.push(`conformance: ${t.passed} passed, ${t.failed} failed${t.notApplicable ? `, ${t.notApplicable} skipped (not applicable)` : ''}`);
  return lines.join('\n');
}
