import { readFileSync } from 'node:fs';
import { spawnSync, type SpawnSyncOptions } from 'node:child_process';

/**
 * CPU time, in ms: the benchmarks run on shared machines, where wall time measures the
 * neighbours as much as the work.
 */
export function cpuMs(work: () => unknown): number {
  const start = process.cpuUsage();
  work();
  const used = process.cpuUsage(start);
  return (used.user + used.system) / 1000;
}

/**
 * Runs a command to its end and returns the CPU time of it and of every descendant it waited for
 * (the kernel's account of reaped children, from /proc: Linux only). An adapter started through a
 * shell must be `exec`ed, so that the kit itself reaps it and its time is counted.
 */
export function childCpuMs(
  command: string,
  args: string[],
  options: SpawnSyncOptions = {},
  exitCodes = [0],
): { ms: number; stdout: string; stderr: string } {
  const before = reapedChildrenTicks();
  const child = spawnSync(command, args, { encoding: 'utf8', maxBuffer: 1 << 28, ...options });
  if (!exitCodes.includes(child.status ?? -1))
    throw new Error(`${command} ${args.join(' ')} exited ${child.status}:\n${child.stdout}${child.stderr}`);
  return {
    ms: ((reapedChildrenTicks() - before) * 1000) / TICKS_PER_SECOND,
    stdout: String(child.stdout),
    stderr: String(child.stderr),
  };
}

/** USER_HZ, which Linux fixes at 100 for what /proc reports. */
const TICKS_PER_SECOND = 100;

function reapedChildrenTicks(): number {
  // Fields after the command name (which may contain spaces): cutime and cstime are the 14th and 15th.
  const stat = readFileSync('/proc/self/stat', 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return Number(fields[13]) + Number(fields[14]);
}
