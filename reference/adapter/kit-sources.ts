import { Absent, Unavailable, type ContextSource, type Json, type Observation } from '../context/context-source.js';
import type { GateBoard } from './kit-tools.js';

export type KitSourceState = { value: Json } | { state: 'unavailable' | 'absent' };

/**
 * Context Sources whose renderers the conformance kit defines, so scenarios can expect exact
 * texts from any runtime. Their values are set by the kit; a source never set is unavailable.
 */
export class KitSources {
  private readonly states = new Map<string, KitSourceState>();
  /** Values that replace a source's state once it has been read: a change during a boundary. */
  private readonly nextValues = new Map<string, Json>();
  /** Gates a source's reads wait for until the kit opens them: a boundary held while it observes. */
  private readonly readGates = new Map<string, string>();

  constructor(private readonly gates: GateBoard) {}

  set(key: string, state: KitSourceState, nextValue?: { value: Json }, gate?: string): void {
    this.states.set(key, state);
    if (nextValue) this.nextValues.set(key, nextValue.value);
    else this.nextValues.delete(key);
    if (gate) this.readGates.set(key, gate);
    else this.readGates.delete(key);
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
        const gate = this.readGates.get(key);
        if (gate) await this.gates.pass(gate, new AbortController().signal);
        const state = this.states.get(key);
        const next = this.nextValues.get(key);
        if (next !== undefined) {
          this.nextValues.delete(key);
          this.states.set(key, { value: next });
        }
        if (!state || ('state' in state && state.state === 'unavailable')) return Unavailable;
        return 'value' in state ? state.value : Absent;
      },
      baseline: (value) => `${key} = ${show(value)}`,
      update: (_previous, value) => `${key} is now ${show(value)}`,
      ...(removable ? { removal: (value: Json) => `${key} (was ${show(value)}) no longer applies` } : {}),
    };
  }
}
