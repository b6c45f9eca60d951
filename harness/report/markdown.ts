import type { ScenarioResult } from './scenario-results.js';
import { areaRows, failureLines } from './summary.js';
import { requestExcerpt } from '../projection/render.js';
import { rulesByReason, verdictPercent, type Coverage } from './coverage.js';
import { withOutcome, type ScenarioVerdict, type Verdict } from './verdict.js';

/** A markdown summary of a run for a CI job summary (`$GITHUB_STEP_SUMMARY` and the like). */
export function formatMarkdown(results: ScenarioResult[], runtime: string, verdict: Verdict): string {
  const { coverage } = verdict;
  const { passed, failed, notImplemented } = coverage;
  const lines = [
    `## Conformance: ${verdict.passed ? '✅ passed' : '❌ failed'}`,
    '',
    `Runtime \`${runtime}\`: ${results.length} scenarios, rules ${passed.length} passed, ${failed.length} failed` +
      `${failed.length ? ` (${failed.join(', ')})` : ''}` +
      `${notImplemented.length ? `, ${notImplemented.length} not implemented (${notImplemented.join(', ')})` : ''}.`,
    '',
    `Verdicts on ${coverage.withVerdict} of ${coverage.rules} rules (${verdictPercent(coverage)}%).` +
      (verdict.shortfall ? ` **${escapeHtml(verdict.shortfall)}**` : ''),
    ...withoutVerdictTable(coverage),
    '',
    '| area | scenarios | passed | failed | n/a | rules passed |',
    '|---|---:|---:|---:|---:|---:|',
    ...areaRows(results).map(
      (row) =>
        `| ${row.area} | ${row.scenarios} | ${row.passed} | ${row.failed} | ${row.notApplicable} | ${row.rulesPassed}/${row.rules} |`,
    ),
  ];
  const failing = verdict.scenarios.filter((s) => s.outcome !== 'passed' && s.outcome !== 'not-applicable');
  if (failing.length > 0) {
    lines.push('', '| outcome | rules | scenario | id |', '|---|---|---|---|');
    for (const scenario of failing) {
      const { result } = scenario;
      lines.push(
        `| ${cell(said(scenario))} | ${result.rules.join(' ')} | \`${result.uri}:${result.line}\` ${cell(result.name)} | \`${result.id}\` |`,
      );
    }
  }
  for (const { result } of withOutcome(verdict, 'unexpected-fail')) {
    const request = result.request ? ['', ...requestExcerpt(result.request)] : [];
    lines.push(
      '',
      `<details><summary>${escapeHtml(`${result.id}: ${result.name}`)}</summary>`,
      '',
      '```',
      ...failureLines(result.message),
      ...request,
      '```',
      '',
      '</details>',
    );
  }
  return `${lines.join('\n')}\n`;
}

function withoutVerdictTable(coverage: Coverage): string[] {
  const byReason = rulesByReason(coverage);
  if (byReason.size === 0) return [];
  return [
    '',
    '| no verdict because | rules |',
    '|---|---|',
    ...[...byReason].map(([reason, rules]) => `| ${cell(reason)} | ${rules.join(' ')} |`),
  ];
}

function said({ outcome, reason }: ScenarioVerdict): string {
  if (outcome === 'expected-fail') return `expected failure: ${reason}`;
  if (outcome === 'unexpected-pass') return 'passes now: remove it from the baseline';
  return 'failed';
}

/** Table cells hold one line, and a pipe would end the cell. */
function cell(text: string): string {
  return escapeHtml(text).replace(/\|/g, '\\|').replace(/\n/g, ' ');
}

function escapeHtml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}
