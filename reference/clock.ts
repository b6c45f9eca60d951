/** Where the runtime reads the time. Injected so that hosts (and conformance runs) decide what "now" is. */
export interface Clock {
  now(): Date;
  /** Resolves once the clock reads `at` or later; rejects when `signal` aborts first. */
  until(at: Date, signal: AbortSignal): Promise<void>;
}

export const systemClock: Clock = {
  now: () => new Date(),
  until: (at, signal) =>
    new Promise((resolve, reject) => {
      const timer = setTimeout(done, Math.max(0, at.getTime() - Date.now()));
      signal.addEventListener('abort', onAbort, { once: true });
      function done() {
        signal.removeEventListener('abort', onAbort);
        resolve();
      }
      function onAbort() {
        clearTimeout(timer);
        reject(signal.reason);
      }
    }),
};
