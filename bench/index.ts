import { measureSuite } from './suite.js';
import { measureDiff, measureReplay } from './replay-diff.js';
import { measureEventAppend } from './event-append.js';
import { measureBounding } from './tool-output.js';

/**
 * `npm run bench`: every figure against its floor, measured in one run (CPU time, so that a
 * shared machine's neighbours do not count), printed as the README's performance table.
 * BENCH_TURNS sets the replay's length (100,000 by default); BENCH_SUITE_ROUNDS how often the
 * whole suite runs each way (3 by default, the medians reported); BENCH_SKIP_SUITE=1 leaves it out.
 */
const turns = Number(process.env.BENCH_TURNS ?? 100_000);
const suiteRounds = Math.max(1, Number(process.env.BENCH_SUITE_ROUNDS ?? 3));
const diffTurns = 10_000;

type Row = [measure: string, figure: string, floor: string, ratio: string, target: string];
const rows: Row[] = [];
const seconds = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
const times = (ratio: number) => `${ratio.toFixed(2)}x`;
const add = (row: Row) => {
  rows.push(row);
  process.stderr.write(`${row.join(' · ')}\n`);
};

if (process.env.BENCH_SKIP_SUITE !== '1') {
  const suite = measureSuite(suiteRounds);
  const noOp = `${suite.scenarios} no-op scenarios: ${seconds(suite.floorMs)}`;
  add([
    `whole suite in process (CPU, median of ${suite.rounds})`,
    seconds(suite.inProcessMs),
    noOp,
    times(suite.inProcessRatio),
    '≤ 3x',
  ]);
  add([
    `whole suite over stdio (CPU, median of ${suite.rounds})`,
    seconds(suite.stdioMs),
    `in process: ${seconds(suite.inProcessMs)}`,
    times(suite.stdioRatio),
    '≤ 2x',
  ]);
}
const replay = measureReplay(turns);
add([
  `replay of ${turns.toLocaleString('en')} turns (CPU)`,
  seconds(replay.ms),
  `parsing the script: ${seconds(replay.floorMs)}`,
  times(replay.ms / replay.floorMs),
  '≤ 5x',
]);
add([`replay of ${turns.toLocaleString('en')} turns, peak memory`, `${replay.peakMb} MB`, '', '', '< 300 MB']);
const diff = measureDiff(diffTurns);
add([
  `kit diff of ${diffTurns.toLocaleString('en')}-turn projections (CPU)`,
  seconds(diff.ms),
  `parsing both: ${seconds(diff.floorMs)}`,
  times(diff.ms / diff.floorMs),
  '≤ 3x',
]);
const append = measureEventAppend();
add(['event append, speed', '', `raw inserts`, times(append.rawMs / append.appendMs), '≥ 0.5x']);
for (const { size, speed } of measureBounding()) {
  add([`tool output bounding at ${size}, speed`, '', 'Buffer copy', times(speed), '≥ 0.5x']);
}

const header: Row = ['measure', 'figure', 'floor', 'ratio', 'target'];
process.stdout.write(
  `${[header, header.map(() => '---') as Row, ...rows].map((row) => `| ${row.join(' | ')} |`).join('\n')}\n`,
);
