import { escapeHtml } from './escape.js';
import { shareMark, type Field } from './field-comparison.js';
import { shareText } from './judged-share.js';
import { OUTCOMES } from './outcome.js';

/**
 * The field comparison as one static HTML page, readable from a checkout or any static host: a
 * row per rule, a column per judged runtime, each cell its outcome with the note on hover, links
 * to each runtime's REPORT.md (a failing cell to its rule's evidence there), and filters by rule
 * area and outcome. `depth` is how many folders below the kit's root the page is written.
 */
export function fieldPage({ runtimes, rows }: Field, depth: number): string {
  const root = '../'.repeat(depth);
  const report = (runtime: string) => `${root}adapters/${runtime}/REPORT.md`;
  const areas = [...new Set(rows.map(({ rule }) => rule.area))];
  const option = (value: string, label = value) => `<option value="${escapeHtml(value)}">${escapeHtml(label)}</option>`;
  const body = rows.map(({ rule, cells }) => {
    const outcomes = [...new Set(cells.flatMap((cell) => (cell ? [cell.outcome] : [])))];
    const tds = cells.map((cell, i) => {
      if (!cell) return '<td class="none">not judged yet</td>';
      // Words, not the markdown twin's emoji, which a host without colour fonts shows as boxes.
      const mark = escapeHtml(`${cell.outcome}${shareMark(cell)}`);
      const evidence = cell.outcome === 'failed' || cell.outcome === 'not implemented' || cell.outcome === 'errored';
      const anchor = `${rule.id}-${cell.outcome}`.toLowerCase().replace(/\s+/g, '-');
      const shown = evidence
        ? `<a href="${escapeHtml(`${report(runtimes[i]!.runtime)}#${anchor}`)}">${mark}</a>`
        : mark;
      const share = cell.scenarios ? shareText(cell.scenarios, cell.clauses) : undefined;
      const said = [cell.note, share].filter(Boolean).join(' · ');
      const title = said ? ` title="${escapeHtml(said)}"` : '';
      return `<td class="${cssClass(cell.outcome)}" data-outcome="${escapeHtml(cell.outcome)}"${title}>${shown}</td>`;
    });
    return `<tr data-area="${escapeHtml(rule.area)}" data-outcomes="${escapeHtml(outcomes.join('|'))}"><th scope="row" title="${escapeHtml(rule.statement)}">${rule.id}</th>${tds.join('')}</tr>`;
  });
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Session runtimes, rule by rule</title>
<style>
body { font: 14px/1.4 system-ui, sans-serif; margin: 1.5em; color: #1b1f24; }
table { border-collapse: collapse; }
th, td { border: 1px solid #d0d7de; padding: 0.25em 0.6em; text-align: left; white-space: nowrap; }
thead th { position: sticky; top: 0; background: #f6f8fa; }
td a { color: inherit; }
.passed { background: #dafbe1; } .failed { background: #ffebe9; } .not-implemented { background: #fff1e5; }
.errored { background: #fbefff; } .not-judged { background: #f6f8fa; } .not-applicable, .none { color: #656d76; }
form { margin: 1em 0; display: flex; gap: 1.5em; }
</style>
</head>
<body>
<h1>Session runtimes, rule by rule</h1>
<p>Each cell is a rule's outcome on one runtime, as its judge decided it (see
<a href="${root}docs/implementers.md#4-outcomes">what each outcome means</a>). Hover a cell for the
reading the runtime took or the reason and how much of the rule the outcome rests on, a rule for its
statement; a failing cell links to its evidence. <code>passed 1/4</code>: one of the rule's four
scenarios gave it a verdict, the others none.</p>
<form id="filters">
<label>Area <select id="area">${option('', 'every area')}${areas.map((area) => option(area)).join('')}</select></label>
<label>Outcome on any runtime <select id="outcome">${option('', 'any outcome')}${OUTCOMES.map((o) => option(o)).join('')}</select></label>
<output id="shown">${rows.length} rules shown</output>
</form>
<table id="field">
<thead><tr><th scope="col">rule</th>${runtimes
    .map(
      (r) =>
        `<th scope="col"><a href="${escapeHtml(report(r.runtime))}">${escapeHtml(`${r.runtime} ${r.version}`)}</a><br><small>judged ${escapeHtml(r.date)}</small></th>`,
    )
    .join('')}</tr></thead>
<tbody>
${body.join('\n')}
</tbody>
</table>
<script>
const area = document.getElementById('area');
const outcome = document.getElementById('outcome');
function filter() {
  let shown = 0;
  for (const row of document.querySelectorAll('#field tbody tr')) {
    const visible = (!area.value || row.dataset.area === area.value) &&
      (!outcome.value || row.dataset.outcomes.split('|').includes(outcome.value));
    row.hidden = !visible;
    if (visible) shown += 1;
  }
  document.getElementById('shown').value = shown + ' rules shown';
}
area.addEventListener('change', filter);
outcome.addEventListener('change', filter);
</script>
</body>
</html>
`;
}

function cssClass(outcome: string): string {
  return outcome.replace(/\s+/g, '-');
}
