import { relative, resolve } from 'node:path';
import { isMap, isScalar, parseDocument } from 'yaml';
import { KIT_ROOT } from '../kit-root.js';
import type { IndexedScenario } from '../suite/suite-index.js';
import { stableIds } from '../suite/suite-index.js';
import { rowId } from '../suite/scenario-id.js';
import type { KnownFailures } from './known-failures.js';

/**
 * What a baseline copies from the suite goes stale when a scenario moves: the step a reason quotes
 * and the comment above each entry, which says where its scenario is.
 */

function scenariosById(scenarios: readonly IndexedScenario[]): Map<string, IndexedScenario> {
  return new Map(scenarios.flatMap((scenario) => stableIds(scenario).map((id) => [id, scenario] as const)));
}

/** The comment `kit baseline` writes above an entry: its scenario's rules, place (an example row's own line) and name. */
export function entryComment(scenario: IndexedScenario, id: string): string {
  const row = scenario.rows.find((one) => rowId(scenario.ids[0] ?? '', one.firstCell) === id);
  return `${scenario.rules.join(' ')} ${relative(KIT_ROOT, resolve(scenario.file))}:${row?.line ?? scenario.line} ${scenario.name}`;
}

/** Each entry of a baseline's text whose comment does not say where its scenario is now, in one line each. */
export function staleComments(file: string, text: string, scenarios: readonly IndexedScenario[]): string[] {
  const byId = scenariosById(scenarios);
  const entries = parseDocument(text).get('known-failures', true);
  if (!isMap(entries)) return [];
  return entries.items.flatMap((pair, i) => {
    const id = isScalar(pair.key) ? String(pair.key.value) : '';
    const scenario = byId.get(id);
    // The parser gives the first entry's comment to the map that holds it.
    const written = (
      (isScalar(pair.key) ? pair.key.commentBefore : undefined) ?? (i === 0 ? entries.commentBefore : undefined)
    )?.trim();
    if (!scenario || written === undefined) return [];
    const now = entryComment(scenario, id);
    return written === now ? [] : [`${file}: the comment above ${id} says "${written}", not "${now}"`];
  });
}

/** A step a reason quotes as a failure says where it stopped: `at 'And the provider received 3 requests (line 52)'`. */
const QUOTED_STEP = /at '((?:Given|When|Then|And|But) (.+?)) \(line (\d+)\)'/g;

export interface QuotedStep {
  /** The step as quoted, its keyword first. */
  quoted: string;
  /** Its text without the keyword. */
  text: string;
  line: number;
}

export function quotedSteps(reason: string): QuotedStep[] {
  return [...reason.matchAll(QUOTED_STEP)].map((m) => ({ quoted: m[1]!, text: m[2]!, line: Number(m[3]) }));
}

/**
 * Whether a scenario's step reads as quoted: an outline's `<placeholder>` stands for the value its
 * example row gave.
 */
function reads(stepText: string, quoted: string): boolean {
  if (stepText === quoted) return true;
  if (!stepText.includes('<')) return false;
  const pattern = stepText
    .split(/<[^>]+>/)
    .map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
    .join('.+?');
  return new RegExp(`^${pattern}$`).test(quoted);
}

/**
 * The lines a step quoted by a reason stands at now: a reason written for a failure at a step the
 * scenario moved or no longer has describes another check, which no run may show to be wrong (an
 * intermittent failure shows itself only on some runs).
 */
export function stepLinesNow(scenario: IndexedScenario, quote: QuotedStep): number[] {
  return scenario.steps.filter((step) => reads(step.text, quote.text)).map((step) => step.line);
}

/** Each baseline entry whose reason quotes a step its scenario does not have at that line, in one line each. */
export function staleQuotes(baseline: KnownFailures, scenarios: readonly IndexedScenario[]): string[] {
  const byId = scenariosById(scenarios);
  return [...baseline.entries].flatMap(([id, entry]) => {
    const scenario = byId.get(id);
    if (!scenario) return [];
    return quotedSteps(entry.reason).flatMap((quote) => {
      const lines = stepLinesNow(scenario, quote);
      if (lines.includes(quote.line)) return [];
      const now =
        lines.length === 0
          ? 'the scenario has no such step: say what fails now'
          : `the step is at line ${lines.join(', ')} of ${scenario.file} now`;
      return [`${baseline.file}: ${id} quotes '${quote.quoted}' at line ${quote.line}: ${now}`];
    });
  });
}
