import { Absent, Unavailable, canonicalJson, type ContextSource, type Json, type Observation } from './context-source.js';

/** What the snapshot keeps per key: the admitted value, encoded, and its pre-rendered removal text. */
export interface SnapshotEntry {
  value: Json;
  removal?: string;
}

export type ContextSnapshot = Record<string, SnapshotEntry>;

export interface Baseline {
  /** The rendered parts, in composition order; joined, they are the provider-cache prefix. */
  parts: string[];
  snapshot: ContextSnapshot;
}

export type Initialization = { kind: 'ready'; baseline: Baseline } | { kind: 'blocked'; unavailable: string[] };

/** The outcome of observing the context at a Safe Provider-Turn Boundary: exactly one of four. */
export type Reconciliation =
  | { kind: 'unchanged' }
  | { kind: 'updated'; text: string; snapshot: ContextSnapshot }
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

function entry(source: ContextSource, value: unknown): SnapshotEntry {
  const removal = source.removal?.(value);
  return { value: source.encode(value), ...(removal === undefined ? {} : { removal }) };
}

function render(observed: Observed[]): Baseline {
  const parts: string[] = [];
  const snapshot: ContextSnapshot = {};
  for (const { source, observation } of observed) {
    if (observation === Unavailable || observation === Absent) continue;
    parts.push(source.baseline(observation));
    snapshot[source.key] = entry(source, observation);
  }
  return { parts, snapshot };
}

/** The first complete observation of an epoch; any unavailable source blocks it. */
export async function initialize(sources: ContextSource[]): Promise<Initialization> {
  const observed = await observe(sources);
  const unavailable = observed.filter((o) => o.observation === Unavailable).map((o) => o.source.key);
  if (unavailable.length > 0) return { kind: 'blocked', unavailable };
  return { kind: 'ready', baseline: render(observed) };
}

/**
 * Compares current sources with the snapshot. Changes become one combined text: updates and
 * first renderings in composition order, then removals in key order.
 */
export async function reconcile(sources: ContextSource[], snapshot: ContextSnapshot): Promise<Reconciliation> {
  const observed = await observe(sources);
  const parts: string[] = [];
  const next: ContextSnapshot = {};
  const removed: string[] = [];
  for (const { source, observation } of observed) {
    const stored = snapshot[source.key];
    if (observation === Unavailable) {
      if (stored) next[source.key] = stored;
    } else if (observation === Absent) {
      if (stored) removed.push(source.key);
    } else if (!stored) {
      parts.push(source.baseline(observation));
      next[source.key] = entry(source, observation);
    } else {
      const current = entry(source, observation);
      if (canonicalJson(current.value) !== canonicalJson(stored.value)) {
        parts.push(source.update(source.decode(stored.value), observation));
      }
      next[source.key] = current;
    }
  }
  const registered = new Set(sources.map((source) => source.key));
  removed.push(...Object.keys(snapshot).filter((key) => !registered.has(key)));
  for (const key of removed.sort()) {
    const removal = snapshot[key]!.removal;
    if (removal !== undefined) parts.push(removal);
  }
  if (parts.length === 0) return { kind: 'unchanged' };
  return { kind: 'updated', text: parts.join('\n\n'), snapshot: next };
}

/**
 * A fresh baseline after a baseline-replacing transition. It waits while a previously admitted
 * source is unavailable; a source never admitted does not block, it is left out.
 */
export async function replace(sources: ContextSource[], snapshot: ContextSnapshot): Promise<Reconciliation> {
  const observed = await observe(sources);
  const unavailable = observed.filter((o) => o.observation === Unavailable && snapshot[o.source.key]).map((o) => o.source.key);
  if (unavailable.length > 0) return { kind: 'replacement-blocked', unavailable };
  return { kind: 'replacement-ready', baseline: render(observed) };
}
