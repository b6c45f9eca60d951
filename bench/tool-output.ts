import { boundedPreview, DEFAULT_TOOL_OUTPUT_LIMIT, withinLimit } from '../reference/tools/bounded-preview.js';
import { cpuMs } from './cpu-time.js';
import { median } from './median.js';

/**
 * What bounding a tool output costs: the reference registry's path for a textual output (the
 * limit check, and for one over the limit the head-and-tail preview, its text) against a plain
 * Buffer copy of the same bytes, at 1 KB (within the default limit), 1 MB and 50 MB. Runs of the
 * two alternate, so that both see the same state of a shared machine, and each run takes enough
 * CPU time to be measured well; the speed is the median over runs of copy time / bounding time.
 */
const RUNS = Number(process.env.BENCH_RUNS ?? 11);
/** CPU time of one run, in ms. */
const RUN_MS = 20;
const SIZES: [string, number][] = [
  ['1 KB', 1024],
  ['1 MB', 1024 * 1024],
  ['50 MB', 50 * 1024 * 1024],
];

const line = 'build step 0000: compiled module ünïcödé → ok €\n';
const marker = '... output truncated; the full output is saved in /data/tool-output/tool_0001 ...';

/** Runs `calls` calls of one work, in a loop of its own so that its call site sees one callee. */
type Run = (calls: number) => void;

/** CPU time per call of a run of `calls` calls, in ms. */
function perCall(run: Run, calls: number): number {
  return cpuMs(() => run(calls)) / calls;
}

/** Calls enough for one run to take about RUN_MS, found while the work warms up. */
function callsPerRun(run: Run): number {
  let calls = 1;
  let ms = perCall(run, calls);
  while (ms < RUN_MS / 4) {
    calls *= 2;
    ms = perCall(run, calls) * calls;
  }
  return Math.ceil((calls * RUN_MS) / ms);
}

export interface BoundingFigure {
  size: string;
  boundingMs: number;
  copyMs: number;
  /** Median over alternating runs of copy time / bounding time. */
  speed: number;
}

export function measureBounding(): BoundingFigure[] {
  return SIZES.map(([size, bytes]) => {
    const encoded = Buffer.from(line.repeat(Math.max(1, Math.floor(bytes / Buffer.byteLength(line)))), 'utf8');
    // Decoded, as a tool's output is: one flat string.
    const text = encoded.toString('utf8');
    const copy: Run = (calls) => {
      for (let i = 0; i < calls; i++) Buffer.from(encoded);
    };
    const bound: Run = (calls) => {
      for (let i = 0; i < calls; i++)
        if (!withinLimit(text, DEFAULT_TOOL_OUTPUT_LIMIT)) boundedPreview(text, DEFAULT_TOOL_OUTPUT_LIMIT, marker);
    };
    const copyCalls = callsPerRun(copy);
    const boundCalls = callsPerRun(bound);
    const copyTimes: number[] = [];
    const boundTimes: number[] = [];
    for (let run = 0; run < RUNS; run++) {
      copyTimes.push(perCall(copy, copyCalls));
      boundTimes.push(perCall(bound, boundCalls));
    }
    return {
      size,
      boundingMs: median(boundTimes),
      copyMs: median(copyTimes),
      speed: median(copyTimes.map((ms, run) => ms / boundTimes[run]!)),
    };
  });
}
