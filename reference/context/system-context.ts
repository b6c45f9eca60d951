import {
  Absent,
  Unavailable,
  canonicalJson,
  type ContextSource,
  type Json,
  type Observation,
} from './context-source.js';
import { comparable, type ContextDesign } from './context-design.js';

/** What the snapshot keeps per key: the admitted value, encoded, and its pre-rendered removal text. */
export interface SnapshotEntry {
  value: Json;
  removal?: string;
}

export type ContextSnapshot = Record<string, SnapshotEntry>;

export interface Baseline {
  /** The rendered parts, in composition order, with the key of the source that rendered each. */
  parts: { key: string; text: string }[];
  snapshot: ContextSnapshot;
}

export type Initialization = { kind: 'ready'; baseline: Baseline } | { kind: 'blocked'; unavailable: string[] };

/** The outcome of observing the context at a Safe Provider-Turn Boundary: exactly one of four. */
export type Reconciliation =
  | { kind: 'unchanged' }
  /** `keys`: the sources whose changes the text announces, in the order they appear. */
  | { kind: 'updated'; text: string; keys: string[]; snapshot: ContextSnapshot }
  | { kind: 'replacement-ready'; baseline: Baseline }
  | { kind: 'replacement-blocked'; unavailable: string[] };

interface Observed {
  source: ContextSource;
  observation: Observation<unknown>;
}

/** Evaluates every loader concurrently; the result keeps composition order, not completion order. */
async function observe(sources: ContextSource[]): Promise<Observed[]> {
  const observations = await Promise.all(sources.map((source) => source.load()));
  return sources.map((source, i) => ({ source, observation: observations[i] }));
}

function entry(design: ContextDesign, source: ContextSource, value: unknown): SnapshotEntry {
  const removal = source.removal?.(value);
  return { value: comparable(design, source, value), ...(removal === undefined ? {} : { removal }) };
}

function render(design: ContextDesign, observed: Observed[]): Baseline {
  const parts: Baseline['parts'] = [];
  const snapshot: ContextSnapshot = {};
  for (const { source, observation } of observed) {
    if (observation === Unavailable || observation === Absent) continue;
    parts.push({ key: source.key, text: source.baseline(observation) });
    snapshot[source.key] = entry(design, source, observation);
  }
  return { parts, snapshot };
}

/** The first complete observation of an epoch; any unavailable source blocks it. */
export async function initialize(design: ContextDesign, sources: ContextSource[]): Promise<Initialization> {
  const observed = await observe(sources);
  const unavailable = observed.filter((o) => o.observation === Unavailable).map((o) => o.source.key);
  if (unavailable.length > 0) return { kind: 'blocked', unavailable };
  return { kind: 'ready', baseline: render(design, observed) };
}

/**
 * Compares current sources with the snapshot. Changes become one combined text: updates and
 * first renderings in composition order, then removals in key order.
 */
export async function reconcile(
  design: ContextDesign,
  sources: ContextSource[],
  snapshot: ContextSnapshot,
): Promise<Reconciliation> {
  const observed = await observe(sources);
  const parts: { key: string; text: string }[] = [];
  const next: ContextSnapshot = {};
  const removed: string[] = [];
  for (const { source, observation } of observed) {
    const stored = snapshot[source.key];
    if (observation === Unavailable) {
      if (stored) next[source.key] = stored;
    } else if (observation === Absent) {
      if (stored) removed.push(source.key);
    } else if (!stored) {
      parts.push({ key: source.key, text: source.baseline(observation) });
      next[source.key] = entry(design, source, observation);
    } else {
      const current = entry(design, source, observation);
      if (canonicalJson(current.value) !== canonicalJson(stored.value)) {
        // A hashed checkpoint cannot give the previous value back; renderers state the new one anyway.
        const previous = design.hashesSnapshot() ? observation : source.decode(stored.value);
        parts.push({ key: source.key, text: source.update(previous, observation) });
      }
      next[source.key] = current;
    }
  }
  const registered = new Set(sources.map((source) => source.key));
  removed.push(...Object.keys(snapshot).filter((key) => !registered.has(key)));
  for (const key of removed.sort()) {
    const removal = snapshot[key]!.removal;
    if (removal !== undefined) parts.push({ key, text: removal });
  }
  if (parts.length === 0) return { kind: 'unchanged' };
  return {
    kind: 'updated',
    text: parts.map((p) => p.text).join('\n\n'),
    keys: parts.map((p) => p.key),
    snapshot: next,
  };
}

/**
 * A fresh baseline after a baseline-replacing transition. It waits while a previously admitted
 * source is unavailable; a source never admitted does not block, it is left out.
 */
export async function replace(
  design: ContextDesign,
  sources: ContextSource[],
  snapshot: ContextSnapshot,
): Promise<Reconciliation> {
  const observed = await observe(sources);
  const unavailable = observed
    .filter((o) => o.observation === Unavailable && snapshot[o.source.key])
    .map((o) => o.source.key);
  if (unavailable.length > 0) return { kind: 'replacement-blocked', unavailable };
  return { kind: 'replacement-ready', baseline: render(design, observed) };
}
