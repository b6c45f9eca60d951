import { TIME_PARTS, type TimeSpent } from '../driver/time-spent.js';
import type { ScenarioResult } from './scenario-results.js';

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

/** The parts a scenario spent most in, largest first: the runtime's share of the judge's time. */
function largestParts(time: TimeSpent, count: number): string {
  return TIME_PARTS.map((part) => [part, time.parts[part]] as const)
    .filter(([, ms]) => ms >= 50)
    .sort((a, b) => b[1] - a[1])
    .slice(0, count)
    .map(([part, ms]) => `${part} ${seconds(ms)}`)
    .join(', ');
}

/** The three commands that took longest over all scenarios. */
function slowestCommands(timed: readonly { time: TimeSpent }[]): string {
  const byCommand = new Map<string, number>();
  for (const { time } of timed)
    for (const [command, ms] of Object.entries(time.commands ?? {}))
      byCommand.set(command, (byCommand.get(command) ?? 0) + ms);
  return [...byCommand]
    .sort((a, b) => b[1] - a[1])
    .slice(0, 3)
    .map(([command, ms]) => `${command} ${seconds(ms)}`)
    .join(', ');
}

/**
 * Where a judged run's time went, summed over its scenarios (shards add up, so the sum exceeds
 * the wall time of a sharded run), then the slowest scenarios with their largest parts.
 */
export function timeBreakdown(results: readonly ScenarioResult[], slowest = 10): string[] {
  const timed = results.filter((result): result is ScenarioResult & { time: TimeSpent } => !!result.time);
  if (timed.length === 0) return [];
  const total = timed.reduce((sum, { time }) => sum + time.total, 0);
  const sum = (pick: (time: TimeSpent) => number) => timed.reduce((acc, { time }) => acc + pick(time), 0);
  const share = (ms: number) => `${Math.round((100 * ms) / Math.max(total, 1))}%`.padStart(4);
  const width = Math.max(...TIME_PARTS.map((part) => part.length));
  return [
    `time spent in ${timed.length} scenarios: ${seconds(total)} (summed over shards), ${sum((t) => t.providerTurns)} provider turns`,
    ...TIME_PARTS.flatMap((part) => {
      const ms = sum((t) => t.parts[part]);
      const line = `  ${part.padEnd(width)}  ${seconds(ms).padStart(9)}  ${share(ms)}`;
      const commands = part === 'other commands' ? slowestCommands(timed) : '';
      return commands ? [line, `    of which ${commands}`] : [line];
    }),
    `  ${'of the waits, retry sleeps'.padEnd(width)}  ${seconds(sum((t) => t.retrySleeps)).padStart(9)}  ${share(sum((t) => t.retrySleeps))}`,
    `slowest scenarios:`,
    ...[...timed]
      .sort((a, b) => b.time.total - a.time.total)
      .slice(0, slowest)
      .map(({ id, time }) => `  ${seconds(time.total).padStart(8)}  ${id}: ${largestParts(time, 3)}`),
  ];
}
