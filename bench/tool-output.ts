import { performance } from 'node:perf_hooks';
import { boundedPreview, DEFAULT_TOOL_OUTPUT_LIMIT, withinLimit } from '../reference/tools/bounded-preview.js';
import { median } from './median.js';

/**
 * What bounding a huge tool output costs: the reference registry's path for a 50 MB textual
 * output (UTF-8 encoding of the text it receives, the limit check, the head-and-tail preview and
 * its text; not the managed file write, which is plain I/O) against a plain Buffer copy of the
 * same bytes.
 */
const RUNS = Number(process.argv[2] ?? 7);
const SIZE = 50 * 1024 * 1024;

const line = 'build step 0000: compiled module ünïcödé → ok €\n';
const bytes = Buffer.from(line.repeat(Math.floor(SIZE / Buffer.byteLength(line))));
const text = bytes.toString('utf8');
const marker = '... output truncated; the full output is saved in /data/tool-output/tool_0001 ...';

function throughput(work: () => unknown): number {
  const times: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const start = performance.now();
    work();
    times.push(performance.now() - start);
  }
  return bytes.length / 1024 / 1024 / (median(times) / 1000);
}

const copy = throughput(() => Buffer.from(bytes));
const bounding = throughput(() => {
  const received = Buffer.from(text, 'utf8');
  return withinLimit(received, DEFAULT_TOOL_OUTPUT_LIMIT) || boundedPreview(received, DEFAULT_TOOL_OUTPUT_LIMIT, marker).toString('utf8');
});

process.stdout.write(
  [
    `tool output bounding, 50 MB output, median of ${RUNS} runs:`,
    `  bounding      ${bounding.toFixed(0)} MB/s`,
    `  Buffer copy   ${copy.toFixed(0)} MB/s`,
    `  ratio         ${(bounding / copy).toFixed(1)}x the speed of a copy`,
    '',
  ].join('\n'),
);
