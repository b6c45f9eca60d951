import type { ScenarioResult } from './scenario-results.js';
import { readNoAnswer, type NoAnswer } from '../driver/no-answer.js';
import { COMMAND_TIMEOUT_MS, STARTUP_ALLOWANCE_MS, TIMEOUT_SCALE_RANGE } from '../driver/runtime-driver.js';

/** How many times as long the advice suggests: enough to tell a slow runtime from one that never answers. */
const MORE_TIME = 3;

/**
 * What the timeouts of a run suggest, said once for the run: which commands went unanswered in
 * how many scenarios, then their likely causes and the `--timeout-scale` to try.
 */
export function timeoutAdvice(results: readonly ScenarioResult[]): string | undefined {
  const unanswered = results.flatMap((result) => readNoAnswer(result.message) ?? []);
  if (unanswered.length === 0) return undefined;
  const counts = new Map<string, number>();
  for (const { cmd } of unanswered) counts.set(cmd, (counts.get(cmd) ?? 0) + 1);
  const which = [...counts].map(([cmd, count]) => `${cmd} in ${count}`).join(', ');
  return `timeouts: the runtime did not answer in time (${which} scenario(s)). ${timeoutCauses(unanswered)}`;
}

/**
 * The likely causes of commands left unanswered (a reply never flushed, a slow start or command),
 * and the `--timeout-scale` that gives the runtime more time: `kit run` and `kit smoke` say the same.
 */
export function timeoutCauses(unanswered: readonly NoAnswer[]): string {
  const causes = unanswered.some(({ cmd }) => cmd === 'hello')
    ? 'the adapter does not flush its output after each reply (a reply left in a buffer never arrives: flush after every line, or run Python with -u), or the runtime starts slowly'
    : 'the runtime is slow to answer (a slow start of its own, a loaded machine), or the adapter left a reply unflushed';
  return `Likely causes: ${causes}.${moreTime(unanswered)}`;
}

/** The `--timeout-scale` that gives every start and command more time than this run had. */
function moreTime(unanswered: readonly NoAnswer[]): string {
  const scales = unanswered.map(({ cmd, ms }) => ms / (cmd === 'hello' ? STARTUP_ALLOWANCE_MS : COMMAND_TIMEOUT_MS));
  const current = Math.max(...scales);
  const { max } = TIMEOUT_SCALE_RANGE;
  if (current >= max)
    return ` --timeout-scale ${max}, the most it allows, did not help: the runtime likely never answers.`;
  const suggested = Math.min(max, Number((current * MORE_TIME).toPrecision(2)));
  return ` --timeout-scale ${suggested} gives every start and command ${Number((suggested / current).toPrecision(2))} times the time this run had.`;
}
