/** Consecutive identical tool calls that count as a doom loop (profile `sol`). */
export const DOOM_LOOP_THRESHOLD = 3;

/**
 * Remembers the latest tool calls of one drain; a call is a repeat when its name and its exact
 * input text equal the previous ones.
 */
export class DoomLoopDetector {
  private recent: string[] = [];

  /** Records a call about to run; true when it completes a doom loop. */
  record(name: string, input: string): boolean {
    const call = JSON.stringify([name, input]);
    this.recent = [...this.recent, call].slice(-DOOM_LOOP_THRESHOLD);
    return this.recent.length === DOOM_LOOP_THRESHOLD && this.recent.every((earlier) => earlier === call);
  }

  /** The user let the loop go on: counting starts again. */
  reset(): void {
    this.recent = [];
  }
}
