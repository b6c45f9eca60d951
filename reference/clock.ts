/** Where the runtime reads the time. Injected so that hosts (and conformance runs) decide what "now" is. */
export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };
