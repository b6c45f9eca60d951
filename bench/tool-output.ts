import { performance } from 'node:perf_hooks';
import { boundedPreview, DEFAULT_TOOL_OUTPUT_LIMIT, withinLimit } from '../reference/tools/bounded-preview.js';
import { median } from './median.js';

/**
 * What bounding a tool output costs: the reference registry's path for a textual output (the
 * limit check, and for one over the limit the head-and-tail preview and its text; not the managed
 * file write, which is plain I/O) against a plain Buffer copy of the same bytes, at 1 KB (within
 * the default limit), 1 MB and 50 MB.
 */
const RUNS = Number(process.env.BENCH_RUNS ?? 7);
const SIZES: [string, number][] = [
  ['1 KB', 1024],
  ['1 MB', 1024 * 1024],
  ['50 MB', 50 * 1024 * 1024],
];

const line = 'build step 0000: compiled module ünïcödé → ok €\n';
const marker = '... output truncated; the full output is saved in /data/tool-output/tool_0001 ...';

/** Runs `work` often enough to take a measurable time; the median per call, in ms. */
function timed(work: () => unknown, calls: number): number {
  const times: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const start = performance.now();
    for (let j = 0; j < calls; j++) work();
    times.push((performance.now() - start) / calls);
  }
  return median(times);
}

export interface BoundingFigure {
  size: string;
  boundingMs: number;
  copyMs: number;
}

export function measureBounding(): BoundingFigure[] {
  return SIZES.map(([size, bytes]) => {
    const text = line.repeat(Math.max(1, Math.floor(bytes / Buffer.byteLength(line))));
    const encoded = Buffer.from(text, 'utf8');
    const calls = Math.max(1, Math.floor((64 * 1024 * 1024) / encoded.length));
    const copyMs = timed(() => Buffer.from(encoded), calls);
    const boundingMs = timed(
      () => withinLimit(text, DEFAULT_TOOL_OUTPUT_LIMIT) || boundedPreview(text, DEFAULT_TOOL_OUTPUT_LIMIT, marker),
      calls,
    );
    return { size, boundingMs, copyMs };
  });
}
