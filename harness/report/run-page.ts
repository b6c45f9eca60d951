import { requestExcerpt } from '../projection/render.js';
import { outcomeFor, rulesOf } from './coverage.js';
import { escapeHtml } from './escape.js';
import { headlineWords } from './headline.js';
import { said } from './markdown.js';
import type { Outcome } from './outcome.js';
import { outcomeClass, outcomeLegend, outcomeShape, outcomeStyles } from './outcome-colours.js';
import { closingLine, failureLines } from './summary.js';
import type { ScenarioResult } from './scenario-results.js';
import type { Verdict } from './verdict.js';

/**
 * `kit run --html`: the run as one static page, in the words of the kit's summary: what passed (the
 * markdown summary's headline), every rule's outcome, and every scenario's outcome as the baseline
 * stands it, a failure with the step that decided it, what the kit observed and the request the
 * model was sent. Each rule links to the scenario that decided its outcome (its failure, where it
 * failed), whose evidence opens when reached. Stack traces are left to `--debug`.
 */
export function runPage(results: readonly ScenarioResult[], runtime: string, verdict: Verdict): string {
  const rules = Object.entries(verdict.coverage.outcomes).sort(([a], [b]) => a.localeCompare(b));
  const scenarios = [...verdict.scenarios].sort(
    (a, b) => a.result.uri.localeCompare(b.result.uri) || a.result.line - b.result.line,
  );
  const outcomeCell = (outcome: Outcome, words: string) =>
    `<td class="tint ${outcomeClass(outcome)}">${outcomeShape(outcome)}${escapeHtml(words)}</td>`;
  const scenarioLink = (id: string, outcome: Outcome) =>
    `<a href="#${escapeHtml(id)}">${outcomeShape(outcome)}${escapeHtml(id)}</a>`;
  const ruleRow = ([rule, outcome]: [string, Outcome]) => {
    const of = scenarios
      .filter((s) => rulesOf(s.result).includes(rule))
      .map((s) => ({ id: s.id, outcome: outcomeFor(s.result, rule) }));
    const deciding = of.find((s) => s.outcome === outcome) ?? of[0];
    const id = escapeHtml(rule);
    return `<tr><th scope="row">${deciding ? `<a href="#${escapeHtml(deciding.id)}">${id}</a>` : id}</th>${outcomeCell(outcome, outcome)}<td>${of.map((s) => scenarioLink(s.id, s.outcome)).join(' ')}</td></tr>`;
  };
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
td a { color: inherit; margin-right: 0.5em; }
/* An ID broken at its hyphen reads as two. */
th a, td a, .id { white-space: nowrap; }
tr:target { outline: 3px solid #0072B2; }
td.tint { min-width: 8em; }
.legend { list-style: none; padding: 0; }
${outcomeStyles()}
</style>
</head>
<body>
<h1>Conformance of ${escapeHtml(runtime)}: ${outcomeShape(verdict.passed ? 'passed' : 'failed')}${escapeHtml(headlineWords(verdict))}</h1>
<p>${escapeHtml(closingLine(results, verdict))}${verdict.shortfall ? `. ${escapeHtml(verdict.shortfall)}` : ''}${verdict.baseline ? ` (baseline ${escapeHtml(verdict.baseline)})` : ''}</p>
${outcomeLegend()}
<h2>Rules</h2>
<table id="rules"><thead><tr><th>rule</th><th>outcome</th><th>scenarios, with their outcome for the rule</th></tr></thead><tbody>
${rules.map(ruleRow).join('\n')}
</tbody></table>
<h2>Scenarios</h2>
<table id="scenarios"><thead><tr><th>scenario</th><th>rules</th><th>outcome</th><th>evidence</th></tr></thead><tbody>
${scenarios
  .map(
    (scenario) =>
      `<tr id="${escapeHtml(scenario.id)}">${[
        `<td>${escapeHtml(scenario.result.name)}<br><small>${escapeHtml(`${scenario.result.uri}:${scenario.result.line} @id:${scenario.id}`)}</small></td>`,
        `<td>${scenario.result.rules.map((rule) => `<span class="id">${escapeHtml(rule)}</span>`).join(' ')}</td>`,
        outcomeCell(scenario.outcome, said(scenario)),
        `<td>${evidence(scenario.result)}</td>`,
      ].join('')}</tr>`,
  )
  .join('\n')}
</tbody></table>
<script>
// A link to a scenario shows its evidence, folded otherwise.
function openTarget() {
  const target = location.hash && document.getElementById(decodeURIComponent(location.hash.slice(1)));
  const details = target && target.querySelector('details');
  if (details) details.open = true;
}
addEventListener('hashchange', openTarget);
openTarget();
</script>
</body>
</html>
`;
}
