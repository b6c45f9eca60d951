/**
 * Whether a run already has every outcome its caller needs, so that the scenarios still to come
 * are set aside unrun. The caller and the steps may be two copies of this module (the steps run
 * from a bundle), so the flag lives on the process's global object under a registered symbol.
 */
const SETTLED = Symbol.for('kit.run-settled');

interface Flagged {
  [SETTLED]?: boolean;
}

export function settleRun(settled: boolean): void {
  (globalThis as Flagged)[SETTLED] = settled;
}

export function runSettled(): boolean {
  return (globalThis as Flagged)[SETTLED] === true;
}
