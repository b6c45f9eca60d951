import { Absent, Unavailable, type ContextSource, type Json, type Observation } from '../context/context-source.js';

export type KitSourceState = { value: Json } | { state: 'unavailable' | 'absent' };

/**
 * Context Sources whose renderers the conformance kit defines, so scenarios can expect exact
 * texts from any runtime. Their values are set by the kit; a source never set is unavailable.
 */
export class KitSources {
  private readonly states = new Map<string, KitSourceState>();

  set(key: string, state: KitSourceState): void {
    this.states.set(key, state);
  }

  /** `latency` delays the loader by that many turns of the event loop, to vary completion order. */
  source(key: string, removable: boolean, latency: number): ContextSource<Json> {
    const show = (value: Json) => JSON.stringify(value);
    return {
      key,
      encode: (value) => value,
      decode: (json) => json,
      load: async (): Promise<Observation<Json>> => {
        for (let i = 0; i < latency; i++) await new Promise((resolve) => setImmediate(resolve));
        const state = this.states.get(key);
        if (!state || ('state' in state && state.state === 'unavailable')) return Unavailable;
        return 'value' in state ? state.value : Absent;
      },
      baseline: (value) => `${key} = ${show(value)}`,
      update: (_previous, value) => `${key} is now ${show(value)}`,
      ...(removable ? { removal: (value: Json) => `${key} (was ${show(value)}) no longer applies` } : {}),
    };
  }
}
