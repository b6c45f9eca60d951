import type { ScenarioResult } from './scenario-results.js';

interface Tally {
  passed: number;
  failed: number;
  skipped: number;
}

const tally = (results: ScenarioResult[]): Tally => ({
  passed: results.filter((r) => r.status === 'passed').length,
  failed: results.filter((r) => r.status === 'failed').length,
  skipped: results.filter((r) => r.status === 'skipped').length,
});

/** A rule passes when every scenario that encodes it passes. */
export function ruleOutcomes(results: ScenarioResult[]): Map<string, 'passed' | 'failed'> {
  const outcomes = new Map<string, 'passed' | 'failed'>();
  for (const result of results) {
    for (const rule of result.rules) {
      if (result.status === 'failed') outcomes.set(rule, 'failed');
      else if (!outcomes.has(rule)) outcomes.set(rule, 'passed');
    }
  }
  return new Map([...outcomes].sort(([a], [b]) => a.localeCompare(b)));
}

/** The closing summary of a run: per rule area, the failing rules with their scenarios, and totals. */
export function formatSummary(results: ScenarioResult[], runtime: string): string {
  const areas = [...new Set(results.map((r) => r.area))].sort();
  const width = Math.max(4, ...areas.map((a) => a.length));
  const lines = [`runtime: ${runtime}`, '', `${'area'.padEnd(width)}  scenarios  passed  failed  rules passed`];
  for (const area of areas) {
    const inArea = results.filter((r) => r.area === area);
    const rules = ruleOutcomes(inArea);
    const rulesPassed = [...rules.values()].filter((o) => o === 'passed').length;
    const t = tally(inArea);
    lines.push(
      `${area.padEnd(width)}  ${String(inArea.length).padStart(9)}  ${String(t.passed).padStart(6)}  ${String(t.failed).padStart(6)}  ${rulesPassed}/${rules.size}`,
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
  const failedRules = [...rules].filter(([, o]) => o === 'failed').map(([rule]) => rule);
  const t = tally(results);
  lines.push('');
  lines.push(`rules: ${rules.size - failedRules.length} passed, ${failedRules.length} failed${failedRules.length ? ` (${failedRules.join(' ')})` : ''}`);
  lines.push(`conformance: ${t.passed} passed, ${t.failed} failed${t.skipped ? `, ${t.skipped} skipped` : ''}`);
  return lines.join('\n');
}
