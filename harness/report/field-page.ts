import { escapeHtml } from './escape.js';
import {
  differsFromParent,
  shareMark,
  withoutCell,
  type Field,
  type FieldRow,
  type FieldRuntime,
} from './field-comparison.js';
import { shareText } from './judged-share.js';
import { isVerdict, type Outcome } from './outcome.js';
import { outcomeClass, outcomeLegend, outcomeShape, outcomeStyles, SHOWN_ORDER } from './outcome-colours.js';
import type { RuleStanding } from './rule-standings.js';
import { judgementFolder, judgementName } from './runtime-report.js';

/**
 * The field comparison as one static HTML page, readable from a checkout or any static host. A
 * summary first, as wpt.fyi's: per runtime a bar of its rules' outcomes and the share of its
 * verdicts that passed, then an area-by-runtime matrix whose cells filter the rule table to their
 * area. Below, the rule table: a row per rule, a column per judged runtime, each cell its outcome
 * with the note on hover, linking a failing cell to its rule's evidence in the runtime's REPORT.md;
 * filters by area and outcome. `depth` is how many folders below the kit's root the page is written.
 */
export function fieldPage(comparison: Field, depth: number): string {
  const { runtimes, rows } = comparison;
  const root = '../'.repeat(depth);
  const report = (r: FieldRuntime) => `${root}${judgementFolder(r)}/REPORT.md`;
  const areas = [...new Set(rows.map(({ rule }) => rule.area))].map(
    (area) => [area, rows.filter((row) => row.rule.area === area)] as const,
  );
  const option = (value: string, label = value) => `<option value="${escapeHtml(value)}">${escapeHtml(label)}</option>`;
  const runtimeName = (r: FieldRuntime) => escapeHtml(`${judgementName(r)} ${r.version}`);
  const areaLink = (area: string, text: string) => `<a href="#rules" data-area="${escapeHtml(area)}">${text}</a>`;

  const totals = runtimes.map((r, i) => {
    const tally = tallyOf(rows, i);
    const scope = r.only ? `<small class="scope">judged on <code>${escapeHtml(r.only)}</code> only</small>` : '';
    return `<tr><th scope="row"><a href="${escapeHtml(report(r))}">${runtimeName(r)}</a><br><small>judged ${escapeHtml(r.date)}</small>${scope}</th><td class="wide">${bar(tally, r)}<small class="counts">${countsText(tally, r)}</small></td><td class="share">${passShare(tally)}</td></tr>`;
  });

  const matrix = areas.map(([area, areaRows]) => {
    const [code, name] = splitArea(area);
    const cells = runtimes.map((r, i) => {
      const tally = tallyOf(areaRows, i);
      const title = `${judgementName(r)} on ${code}: ${countsWords(tally, r)}`;
      const share =
        tally.outside === areaRows.length ? `<small>${escapeHtml(withoutCell(r))}</small>` : passShare(tally);
      return `<td title="${escapeHtml(title)}">${areaLink(area, share)}${bar(tally, r, 'mini')}</td>`;
    });
    return `<tr><th scope="row" title="${escapeHtml(area)}">${areaLink(area, `<b>${escapeHtml(code)}</b>`)} <small>${escapeHtml(name)}</small></th><td class="count">${areaRows.length}</td>${cells.join('')}</tr>`;
  });

  const body = rows.map((row) => {
    const { rule, cells } = row;
    const outcomes = [...new Set(cells.flatMap((cell) => (cell ? [cell.outcome] : [])))];
    const tds = cells.map((cell, i) =>
      cell
        ? ruleCell(rule.id, cell, report(runtimes[i]!), differsFromParent(comparison, row, i))
        : outsideCell(runtimes[i]!),
    );
    return `<tr data-area="${escapeHtml(rule.area)}" data-outcomes="${escapeHtml(outcomes.join('|'))}"><th scope="row" title="${escapeHtml(rule.statement)}">${rule.id}</th>${tds.join('')}</tr>`;
  });

  const columns = runtimes
    .map(
      (r) =>
        `<th scope="col"><a href="${escapeHtml(report(r))}">${runtimeName(r)}</a><br><small>judged ${escapeHtml(r.date)}${r.forkOf ? `, fork of ${escapeHtml(r.forkOf)}` : ''}</small></th>`,
    )
    .join('');
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Session runtimes, rule by rule</title>
<style>
body { font: 14px/1.4 system-ui, sans-serif; margin: 1.5em; color: #1b1f24; }
table { border-collapse: separate; border-spacing: 0; }
th, td { border: 1px solid #d0d7de; border-width: 0 1px 1px 0; padding: 0.25em 0.6em; text-align: left; white-space: nowrap; }
tr > :first-child { border-left-width: 1px; }
thead th { border-top-width: 1px; background: #f6f8fa; }
td a { color: inherit; }
small { color: #57606a; }
${outcomeStyles()}
.outside { --outcome: repeating-linear-gradient(135deg, #fff 0 3px, #bbb 3px 5px); color: #57606a; }
td.outside { background: #fafbfc; font-size: 0.85em; }
.legend { list-style: none; padding: 0; columns: 2 28em; margin: 0.5em 0 1em; }
.legend li { margin: 0.15em 0; break-inside: avoid; }
.bar { display: flex; height: 1.4em; border: 1px solid #57606a; min-width: 12em; }
.bar > span { background: var(--outcome); color: #000; font-size: 0.8em; line-height: 1.75em; text-align: center; overflow: hidden; }
.bar > span + span { border-left: 1px solid #fff; }
.bar.mini { height: 0.6em; min-width: 6em; margin-top: 0.2em; }
.wide { width: 100%; }
.counts { display: block; white-space: normal; }
.tally { white-space: nowrap; margin-right: 0.5em; }
#totals { width: 100%; }
.scope { display: block; white-space: normal; max-width: 18em; }
.share, .count { text-align: right; }
#areas th small { display: inline-block; max-width: 16em; overflow: hidden; text-overflow: ellipsis; vertical-align: bottom; }
/* On a narrow screen the prefix alone names an area (its full name on hover), leaving room for runtimes. */
@media (max-width: 900px) { #areas th small { display: none; } }
.scroll { overflow: auto; max-width: 100%; }
#field-scroll { max-height: 85vh; }
.scroll thead th { position: sticky; top: 0; z-index: 1; }
.scroll tbody th, .scroll thead th:first-child { position: sticky; left: 0; background: #fff; z-index: 1; }
.scroll thead th:first-child { background: #f6f8fa; z-index: 2; }
form { margin: 1em 0; display: flex; flex-wrap: wrap; gap: 0.5em 1.5em; }
.differs { color: #8250df; }
</style>
</head>
<body>
<h1>Session runtimes, rule by rule</h1>
<p>Each runtime's outcome on each rule of the catalogue, as its judge decided it (see
<a href="${root}docs/implementers.md#4-outcomes">what each outcome means</a>). A pass share counts the
rules a runtime passed among those that got a verdict on it (passed, failed or not implemented).</p>
${outcomeLegend([
  `<li><span class="shape outside" aria-hidden="true">◌</span><b>outside this runtime's profiles</b>: its judge runs the scenarios of some profiles only, so the rule was not run on it</li>`,
])}
<h2 id="summary">Summary</h2>
<table id="totals"><thead><tr><th scope="col">runtime</th><th scope="col">outcomes of the ${rows.length} rules</th><th scope="col" title="rules passed of those with a verdict">pass share</th></tr></thead>
<tbody>
${totals.join('\n')}
</tbody>
</table>
<h2 id="by-area">By area</h2>
<p>Rules passed of those with a verdict, per area; a cell shows that area's rules below.</p>
<div class="scroll">
<table id="areas"><thead><tr><th scope="col">area</th><th scope="col">rules</th>${columns}</tr></thead>
<tbody>
${matrix.join('\n')}
</tbody>
</table>
</div>
<h2 id="rules">Rule by rule</h2>
<p>Hover a cell for the reading the runtime took or the reason and how much of the rule the outcome
rests on, a rule for its statement; a failing cell links to its evidence. <code>passed 1/4</code>: one of
the rule's four scenarios gave it a verdict, the others none. <b class="differs">≠</b>: a fork's outcome
differs from that of the runtime it was forked from, in the column before it.</p>
<form id="filters">
<label>Area <select id="area">${option('', 'every area')}${areas.map(([area]) => option(area)).join('')}</select></label>
<label>Outcome on any runtime <select id="outcome">${option('', 'any outcome')}${SHOWN_ORDER.map((o) => option(o)).join('')}</select></label>
<output id="shown">${rows.length} rules shown</output>
</form>
<div class="scroll" id="field-scroll">
<table id="field">
<thead><tr><th scope="col">rule</th>${columns}</tr></thead>
<tbody>
${body.join('\n')}
</tbody>
</table>
</div>
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
for (const link of document.querySelectorAll('a[data-area]')) {
  link.addEventListener('click', () => {
    area.value = link.dataset.area;
    filter();
  });
}
</script>
</body>
</html>
`;
}

/** How many of the rows had each outcome on the runtime of column `i`; `outside`: rules it has no cell on. */
type Tally = Record<Outcome | 'outside', number>;

function tallyOf(rows: readonly FieldRow[], i: number): Tally {
  const tally = Object.fromEntries([...SHOWN_ORDER, 'outside'].map((o) => [o, 0])) as Tally;
  for (const row of rows) tally[row.cells[i]?.outcome ?? 'outside'] += 1;
  return tally;
}

/** Rules passed of those with a verdict, as the badge counts them. */
function passShare(tally: Tally): string {
  const verdicts = SHOWN_ORDER.filter(isVerdict).reduce((sum, o) => sum + tally[o], 0);
  if (verdicts === 0) return '<small>no verdict</small>';
  return `${tally.passed} / ${verdicts} <small>${Math.round((tally.passed * 100) / verdicts)} %</small>`;
}

/** One segment per outcome that occurs, as wide as its share of the rows, its count inside when the full bar has room. */
function bar(tally: Tally, runtime: FieldRuntime, size: 'full' | 'mini' = 'full'): string {
  const total = Object.values(tally).reduce((sum, n) => sum + n, 0);
  const segments = [...SHOWN_ORDER, 'outside' as const]
    .filter((o) => tally[o] > 0)
    .map((o) => {
      const words = o === 'outside' ? withoutCell(runtime) : o;
      const cls = o === 'outside' ? 'outside' : outcomeClass(o);
      const shown = size === 'full' && tally[o] * 25 >= total ? String(tally[o]) : '';
      return `<span class="${cls}" style="width: ${((tally[o] * 100) / total).toFixed(2)}%" title="${escapeHtml(`${tally[o]} ${words}`)}">${shown}</span>`;
    });
  return `<div class="bar${size === 'mini' ? ' mini' : ''}" role="img" aria-label="${escapeHtml(countsWords(tally, runtime))}">${segments.join('')}</div>`;
}

function countsWords(tally: Tally, runtime: FieldRuntime): string {
  return [...SHOWN_ORDER, 'outside' as const]
    .filter((o) => tally[o] > 0)
    .map((o) => `${tally[o]} ${o === 'outside' ? withoutCell(runtime) : o}`)
    .join(', ');
}

/** The counts under a bar, each with its outcome's shape: the bar's colours are not the only cue. */
function countsText(tally: Tally, runtime: FieldRuntime): string {
  return [...SHOWN_ORDER, 'outside' as const]
    .filter((o) => tally[o] > 0)
    .map((o) =>
      o === 'outside'
        ? `<span class="tally"><span class="shape outside" aria-hidden="true">◌</span>${tally[o]} ${escapeHtml(withoutCell(runtime))}</span>`
        : `<span class="tally">${outcomeShape(o)}${tally[o]} ${escapeHtml(o)}</span>`,
    )
    .join(' ');
}

/** `parent`: the runtime a fork was forked from, where the fork's outcome differs from its. */
function ruleCell(rule: string, cell: RuleStanding, report: string, parent?: FieldRuntime): string {
  // Words and a shape, not the markdown twin's emoji, which a host without colour fonts shows as boxes.
  const words = escapeHtml(cell.outcome);
  const evidence = cell.outcome === 'failed' || cell.outcome === 'not implemented' || cell.outcome === 'errored';
  const anchor = `${rule}-${cell.outcome}`.toLowerCase().replace(/\s+/g, '-');
  const shown = evidence ? `<a href="${escapeHtml(`${report}#${anchor}`)}">${words}</a>` : words;
  const share = cell.scenarios ? shareText(cell.scenarios, cell.clauses) : undefined;
  const differs = parent
    ? `${judgementName(parent)}, which it was forked from, ${parent.rules[rule]?.outcome ?? 'was not judged on it'}`
    : undefined;
  const said = [cell.note, share, differs && `differs from ${differs}`].filter(Boolean).join(' · ');
  const title = said ? ` title="${escapeHtml(said)}"` : '';
  const mark = differs ? '<b class="differs" aria-label="unlike its parent runtime"> ≠</b>' : '';
  return `<td class="tint ${outcomeClass(cell.outcome)}" data-outcome="${escapeHtml(cell.outcome)}"${title}>${outcomeShape(cell.outcome)}${shown}${escapeHtml(shareMark(cell))}${mark}</td>`;
}

function outsideCell(runtime: FieldRuntime): string {
  return `<td class="outside"><span class="shape outside" aria-hidden="true">◌</span>${escapeHtml(withoutCell(runtime))}</td>`;
}

/** `CTX: Context Sources` as its prefix and its name. */
function splitArea(area: string): [string, string] {
  const colon = area.indexOf(': ');
  return colon < 0 ? [area, ''] : [area.slice(0, colon), area.slice(colon + 2)];
}
