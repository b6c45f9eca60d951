import { spawnSync } from 'node:child_process';
import { performance } from 'node:perf_hooks';
import { kitPath } from '../harness/kit-root.js';
import { median } from './median.js';

/**
 * What the stdio adapter protocol costs: the whole suite against the reference runtime in process
 * and through `reference/adapter/stdio.ts`, each timed over a few runs, and the ratio of medians.
 */
const RUNS = Number(process.argv[2] ?? 3);

function timeSuite(extra: string[]): number {
  const times: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const start = performance.now();
    const run = spawnSync(process.execPath, [kitPath('cli', 'bin.js'), 'run', ...extra], { encoding: 'utf8' });
    times.push(performance.now() - start);
    if (run.status !== 0) throw new Error(`kit run ${extra.join(' ')} exited ${run.status}:\n${run.stdout}${run.stderr}`);
  }
  return median(times);
}

const inProcess = timeSuite([]);
const stdio = timeSuite(['--adapter', `node --import tsx ${kitPath('reference', 'adapter', 'stdio.ts')}`]);
process.stdout.write(
  [
    `whole suite, median of ${RUNS} runs (wall time of kit run, process start included):`,
    `  in process   ${(inProcess / 1000).toFixed(2)} s`,
    `  stdio        ${(stdio / 1000).toFixed(2)} s`,
    `  ratio        ${(stdio / inProcess).toFixed(1)}x`,
    '',
  ].join('\n'),
);
