import type { ScenarioResult } from '../harness/report/scenario-results.js';
import { failingCounts, type Tally } from '../harness/report/summary.js';

/** Where progress goes: a terminal line that rewrites itself, or a log that gets whole lines. */
export interface ProgressStream {
  isTTY?: boolean;
  columns?: number;
  write(text: string): unknown;
}

export interface Progress {
  update(text: string): void;
  /** Ends the progress before anything else is written, such as Cucumber's summary. */
  clear(): void;
}

/** How often a log (CI, a pipe) is told how far the run is. */
export const PROGRESS_EVERY_MS = 10_000;

/**
 * Progress of a long run. On a terminal, one line that rewrites itself. Elsewhere (CI, piped) a
 * line every few seconds with the latest state, so a log shows that the run is alive and how far
 * it is without a line per scenario.
 */
export function progressLine(
  stream: ProgressStream,
  timers: { every(ms: number, tick: () => void): () => void } = { every: realEvery },
): Progress {
  if (stream.isTTY) {
    const width = () => Math.max(20, (stream.columns ?? 80) - 1);
    return {
      update: (text) => stream.write(`\r${text.slice(0, width()).padEnd(width())}`),
      clear: () => stream.write(`\r${' '.repeat(width())}\r`),
    };
  }
  let latest: string | undefined;
  let shown: string | undefined;
  const stop = timers.every(PROGRESS_EVERY_MS, () => {
    if (latest === undefined || latest === shown) return;
    shown = latest;
    stream.write(`progress: ${latest}\n`);
  });
  return {
    update: (text) => {
      latest = text;
    },
    clear: stop,
  };
}

function realEvery(ms: number, tick: () => void): () => void {
  // Progress is for people watching; it never keeps the kit running.
  const timer = setInterval(tick, ms).unref();
  return () => clearInterval(timer);
}

/** How far a run is: the scenarios done, those of each failing outcome, and the last one's outcome. */
export function scenarioProgress(seen: Tally, total: number, last: ScenarioResult): string {
  const done = Object.values(seen).reduce((sum, count) => sum + count, 0);
  return `${done}/${total} scenarios, ${failingCounts(seen)} · last: ${last.status} ${last.uri}:${last.line}`;
}
