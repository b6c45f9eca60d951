import { requestExcerpt } from '../projection/render.js';
import { escapeHtml } from './escape.js';
import { said } from './markdown.js';
import { closingLine, failureLines } from './summary.js';
import type { ScenarioResult } from './scenario-results.js';
import type { Verdict } from './verdict.js';

/**
 * `kit run --html`: the run as one static page, in the words of the kit's summary: whether the run
 * passed against its baseline, every rule's outcome, and every scenario's outcome as the baseline
 * stands it, a failure with the step that decided it, what the kit observed and the request the
 * model was sent. Stack traces are left to `--debug`.
 */
export function runPage(results: readonly ScenarioResult[], runtime: string, verdict: Verdict): string {
  const rules = Object.entries(verdict.coverage.outcomes).sort(([a], [b]) => a.localeCompare(b));
  const scenarios = [...verdict.scenarios].sort(
    (a, b) => a.result.uri.localeCompare(b.result.uri) || a.result.line - b.result.line,
  );
  const row = (cells: string[]) => `<tr>${cells.map((cell) => `<td>${cell}</td>`).join('')}</tr>`;
  const evidence = (result: ScenarioResult) => {
    const observed = [
      ...failureLines(result.message),
      ...(result.request ? ['', ...requestExcerpt(result.request)] : []),
    ];
    return result.message
      ? `<details><summary>${escapeHtml(result.step ?? 'what the kit observed')}</summary><pre>${escapeHtml(observed.join('\n'))}</pre></details>`
      : '';
  };
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>Conformance of ${escapeHtml(runtime)}</title>
<style>
body { font: 14px/1.4 system-ui, sans-serif; margin: 1.5em; color: #1b1f24; }
table { border-collapse: collapse; margin-bottom: 2em; }
th, td { border: 1px solid #d0d7de; padding: 0.25em 0.6em; text-align: left; vertical-align: top; }
pre { white-space: pre-wrap; max-width: 100ch; }
</style>
</head>
<body>
<h1>Conformance of ${escapeHtml(runtime)}: ${verdict.passed ? 'passed' : 'failed'}</h1>
<p>${escapeHtml(closingLine(results, verdict))}${verdict.shortfall ? `. ${escapeHtml(verdict.shortfall)}` : ''}${verdict.baseline ? ` (baseline ${escapeHtml(verdict.baseline)})` : ''}</p>
<h2>Rules</h2>
<table><thead><tr><th>rule</th><th>outcome</th></tr></thead><tbody>
${rules.map(([rule, outcome]) => row([rule, escapeHtml(outcome)])).join('\n')}
</tbody></table>
<h2>Scenarios</h2>
<table><thead><tr><th>scenario</th><th>rules</th><th>outcome</th><th>evidence</th></tr></thead><tbody>
${scenarios
  .map((scenario) =>
    row([
      `${escapeHtml(scenario.result.name)}<br><small>${escapeHtml(`${scenario.result.uri}:${scenario.result.line} @id:${scenario.id}`)}</small>`,
      escapeHtml(scenario.result.rules.join(' ')),
      escapeHtml(said(scenario)),
      evidence(scenario.result),
    ]),
  )
  .join('\n')}
</tbody></table>
</body>
</html>
`;
}
