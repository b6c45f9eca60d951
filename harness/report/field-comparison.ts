import type { RuleEntry } from '../suite/suite-index.js';
import { markdownCell } from './escape.js';
import { withMarkedSection } from './marked-section.js';
import { isVerdict, type Outcome } from './outcome.js';
import type { RuleStanding } from './rule-standings.js';
import { judgementFolder, judgementName, type JudgedRuntime } from './runtime-report.js';

/**
 * The field at a glance: one row per rule of the catalogue, one column per judged runtime, each
 * cell the rule's outcome on that runtime with its note. Generated from the runtimes' judged.json;
 * the static page (field-page.ts) and the README's markdown twin show the same rows.
 */
export interface FieldRow {
  rule: RuleEntry;
  /** In the order of the columns; no cell where the runtime was not judged on the rule (`withoutCell`). */
  cells: (RuleStanding | undefined)[];
}

/**
 * A judged runtime; `only`: the tag expression its judge selects when it judges some profiles alone
 * (judge.json `tags`); `forkOf`: the runtime it was forked from (judge.json `forkOf`).
 */
export interface FieldRuntime extends JudgedRuntime {
  only?: string;
  forkOf?: string;
}

export interface Field {
  runtimes: FieldRuntime[];
  rows: FieldRow[];
}

export function field(judged: readonly FieldRuntime[], rules: readonly RuleEntry[]): Field {
  // A runtime's dialects stand side by side, and a fork right after the runtime it was forked from.
  const family = (r: FieldRuntime) => [r.forkOf ?? r.runtime, r.forkOf ? 1 : 0, judgementName(r)] as const;
  const runtimes = [...judged].sort((a, b) => {
    const [fa, ka, na] = family(a);
    const [fb, kb, nb] = family(b);
    return fa.localeCompare(fb) || ka - kb || na.localeCompare(nb);
  });
  return { runtimes, rows: rules.map((rule) => ({ rule, cells: runtimes.map((r) => r.rules[rule.id]) })) };
}

/**
 * The column a fork's column is compared with: the runtime it was forked from, judged in the same
 * dialect where it was, else in its first.
 */
export function parentColumn(runtimes: readonly FieldRuntime[], i: number): number | undefined {
  const fork = runtimes[i]!;
  if (!fork.forkOf) return undefined;
  const parents = runtimes.flatMap((r, j) => (r.runtime === fork.forkOf ? [j] : []));
  return parents.find((j) => runtimes[j]!.dialect === fork.dialect) ?? parents[0];
}

/** Whether a fork's cell differs from its parent's on the rule: the outcome, or one judged where the other is not. */
export function differsFromParent({ runtimes }: Field, row: FieldRow, i: number): FieldRuntime | undefined {
  const j = parentColumn(runtimes, i);
  if (j === undefined) return undefined;
  return row.cells[i]?.outcome !== row.cells[j]?.outcome ? runtimes[j] : undefined;
}

/** Per fork, the rules on which it differs from the runtime it was forked from. */
export function forkDifferences(comparison: Field): { fork: string; parent: string; rules: string[] }[] {
  return comparison.runtimes.flatMap((r, i) => {
    const j = parentColumn(comparison.runtimes, i);
    if (j === undefined) return [];
    const rules = comparison.rows.filter((row) => differsFromParent(comparison, row, i)).map(({ rule }) => rule.id);
    return [{ fork: judgementName(r), parent: judgementName(comparison.runtimes[j]!), rules }];
  });
}

/**
 * Why a runtime has no outcome on a rule, in words that cannot pass for the outcome "not judged":
 * its judge runs only some profiles, the rule's scenarios all belong to another dialect it is
 * judged in (a judgement per dialect runs the scenarios of its own), or it was judged before the
 * rule was indexed.
 */
export function withoutCell(runtime: FieldRuntime): string {
  if (runtime.only) return "outside this runtime's profiles";
  return runtime.dialect
    ? "judged in another of this runtime's dialects, or indexed after it was judged"
    : 'indexed after this runtime was judged';
}

/** How each outcome reads in a narrow cell. */
export const OUTCOME_MARKS: Record<Outcome, string> = {
  passed: '✅ passed',
  failed: '❌ failed',
  'not implemented': '🚫 not impl.',
  errored: '⚠️ errored',
  'not judged': '❔ not judged',
  'not applicable': '➖ n/a',
};

/** A verdict's share of the rule's scenarios, ` 1/4`, where it rests on fewer than all of them. */
export function shareMark(cell: RuleStanding): string {
  const share = cell.scenarios;
  return share && isVerdict(cell.outcome) && share.judged < share.of ? ` ${share.judged}/${share.of}` : '';
}

export const FIELD_START = '<!-- field-comparison:start -->';
export const FIELD_END = '<!-- field-comparison:end -->';

/** The markdown twin of the page, between its markers: a folded table, a row per rule. */
export function fieldTable(comparison: Field): string {
  const { runtimes, rows } = comparison;
  const heading = runtimes.map(
    (r) =>
      `[${judgementName(r)} ${r.version}](${judgementFolder(r)}/REPORT.md)${r.forkOf ? ` (fork of ${r.forkOf})` : ''}`,
  );
  const differs = (row: FieldRow, i: number) => (differsFromParent(comparison, row, i) ? ' ≠' : '');
  return [
    FIELD_START,
    '<details><summary>Every rule on every judged runtime (the page <a href="docs/field/index.html">docs/field/index.html</a> filters them and shows why on hover); <code>1/4</code> after an outcome: it rests on 1 of the rule\'s 4 scenarios, the others gave no verdict; <code>≠</code>: a fork\'s outcome differs from that of the runtime it was forked from</summary>',
    '',
    `| rule | ${heading.join(' | ')} |`,
    `|---|${runtimes.map(() => '---').join('|')}|`,
    ...rows.map(
      (row) =>
        `| ${row.rule.id} | ${row.cells.map((cell, i) => markdownCell(`${cell ? `${OUTCOME_MARKS[cell.outcome]}${shareMark(cell)}` : withoutCell(runtimes[i]!)}${differs(row, i)}`)).join(' | ')} |`,
    ),
    '',
    '</details>',
    FIELD_END,
  ].join('\n');
}

/** The README with its field table replaced. */
export function withFieldTable(readme: string, table: string): string {
  return withMarkedSection(readme, FIELD_START, FIELD_END, table);
}

/**
 * The rules whose outcome differs between the dialects of a runtime judged in several, each with
 * the outcome per dialect: where the rule is not about the dialect, a difference of the runtime
 * (its two requests show it) or of the kit's handling of a dialect.
 */
export function dialectDifferences({
  runtimes,
  rows,
}: Field): { runtime: string; rule: string; outcomes: Record<string, string> }[] {
  const byRuntime = new Map<string, number[]>();
  runtimes.forEach((r, i) => {
    if (r.dialect) byRuntime.set(r.runtime, [...(byRuntime.get(r.runtime) ?? []), i]);
  });
  return [...byRuntime].flatMap(([runtime, columns]) =>
    columns.length < 2
      ? []
      : rows.flatMap(({ rule, cells }) => {
          // A dialect whose judgement runs none of the rule's scenarios has no outcome to differ by.
          const outcomes = Object.fromEntries(
            columns.flatMap((i) => (cells[i] ? [[runtimes[i]!.dialect!, cells[i].outcome]] : [])),
          );
          return new Set(Object.values(outcomes)).size > 1 ? [{ runtime, rule: rule.id, outcomes }] : [];
        }),
  );
}
