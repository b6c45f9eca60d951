/**
 * CPU time of this process, in ms: the benchmarks run on shared machines, where wall time
 * measures the neighbours as much as the work.
 */
export function cpuMs(work: () => unknown): number {
  const start = process.cpuUsage();
  work();
  const used = process.cpuUsage(start);
  return (used.user + used.system) / 1000;
}
