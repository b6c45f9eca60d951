import { performance } from 'node:perf_hooks';

/**
 * Where a scenario's time went, in milliseconds, measured by the kit around what it waits for.
 * The parts do not overlap: every command falls in one (a wait for the provider's requests
 * counts with the other awaited states), and the kit's own part is the rest. Retry sleeps lie
 * inside the waits, between a provider error the kit answered and the runtime's next request,
 * and are counted there as well.
 */
export const TIME_PARTS = [
  'starts and stops',
  'awaiting idleness',
  'other awaited states',
  'waits ended by timeout',
  'other commands',
  'kit',
] as const;
export type TimePart = (typeof TIME_PARTS)[number];

export interface TimeSpent {
  /** The scenario from its first hook to its last, the runtime's stop included. */
  total: number;
  parts: Record<TimePart, number>;
  /** Of the waits: between an error response of the fake provider and the next request. */
  retrySleeps: number;
  /** Provider requests the scenario received. */
  providerTurns: number;
  /**
   * The other commands' time by command name: where a runtime does work the kit does not see
   * (a server started by its first command, say), the command that waited on it shows.
   */
  commands: Record<string, number>;
}

/** Sums the time spent in each part; `measure` times one stretch of work in its part. */
export class TimeLedger {
  private readonly spent = Object.fromEntries(TIME_PARTS.map((part) => [part, 0])) as Record<TimePart, number>;
  private readonly byCommand = new Map<string, number>();
  private measuring = false;

  /** `now`: the clock measures read, in ms. */
  constructor(private readonly now: () => number = () => performance.now()) {}

  /** `command`: the command that spent it, kept for the other commands. */
  add(part: TimePart, ms: number, command?: string): void {
    this.spent[part] += ms;
    if (part === 'other commands' && command) this.byCommand.set(command, (this.byCommand.get(command) ?? 0) + ms);
  }

  /**
   * Times `work` in `part`. Work measured while other work is being measured (a command sent
   * inside a measured wait, commands sent side by side) counts once, in the outer measure.
   */
  async measure<T>(
    part: TimePart | ((error: unknown) => TimePart),
    work: () => Promise<T>,
    command?: string,
  ): Promise<T> {
    if (this.measuring) return work();
    this.measuring = true;
    const started = this.now();
    let failure: unknown;
    try {
      return await work();
    } catch (error) {
      failure = error;
      throw error;
    } finally {
      this.measuring = false;
      const ms = this.now() - started;
      this.add(typeof part === 'function' ? part(failure) : part, ms, command);
    }
  }

  /** The ledger closed over a scenario that took `total` ms: what no part claimed was the kit's. */
  close(total: number, retrySleeps: number, providerTurns: number): TimeSpent {
    const claimed = TIME_PARTS.reduce((sum, part) => sum + this.spent[part], 0);
    const parts = { ...this.spent, kit: this.spent.kit + Math.max(0, total - claimed) };
    return {
      total: Math.round(total),
      parts: Object.fromEntries(TIME_PARTS.map((part) => [part, Math.round(parts[part])])) as Record<TimePart, number>,
      retrySleeps: Math.round(retrySleeps),
      providerTurns,
      commands: Object.fromEntries([...this.byCommand].map(([command, ms]) => [command, Math.round(ms)])),
    };
  }
}
