/**
 * A Context Source: one independently observed typed value of the System Context, with a stable
 * namespaced key, a codec that decides equality, and pure renderers.
 */

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/** The loader could not observe a value this time; the previously admitted value stays in force. */
export const Unavailable = Symbol('context source unavailable');
/** The loader observed, successfully, that the source has no value (a removal). */
export const Absent = Symbol('context source absent');

export type Observation<T> = T | typeof Unavailable | typeof Absent;

export interface ContextSource<T = unknown> {
  key: string;
  encode(value: T): Json;
  decode(json: Json): T;
  load(): Promise<Observation<T>>;
  baseline(value: T): string;
  /** The newly effective state only; the previous value is given for sources that need it. */
  update(previous: T, current: T): string;
  /** Present for dynamic sources that can go away; rendered when the value is admitted. */
  removal?(value: T): string;
}

const KEY = /^[a-z0-9][a-z0-9._-]*\/[a-z0-9][a-z0-9._/-]*$/;

export class ContextCompositionError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ContextCompositionError';
  }
}

export function checkKey(key: string): void {
  if (!KEY.test(key))
    throw new ContextCompositionError(`context source key "${key}" is not namespaced like "core/date"`);
}

/** Canonical JSON text: equal values encode to equal text whatever their key order. */
export function canonicalJson(value: Json): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const keys = Object.keys(value).sort();
    return `{${keys.map((k) => `${JSON.stringify(k)}:${canonicalJson(value[k]!)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

/** Combines sources in the caller's order; a repeated key is a composition error naming it. */
export function combine(sources: ContextSource[]): ContextSource[] {
  const seen = new Set<string>();
  for (const source of sources) {
    checkKey(source.key);
    if (seen.has(source.key)) throw new ContextCompositionError(`duplicate context source key: ${source.key}`);
    seen.add(source.key);
  }
  return sources;
}
