import { test } from 'node:test';
import assert from 'node:assert/strict';
import { PROGRESS_EVERY_MS, progressLine, scenarioProgress } from './progress.js';
import { scenarioResult } from '../harness/report/results-for-tests.js';
import { tally } from '../harness/report/summary.js';

/** A stream that keeps what is written, and timers the test moves by hand. */
function harness(isTTY: boolean) {
  const written: string[] = [];
  const ticks: { ms: number; tick: () => void; stopped: boolean }[] = [];
  const progress = progressLine(
    { isTTY, columns: 40, write: (text: string) => written.push(text) },
    {
      every: (ms, tick) => {
        const timer = { ms, tick, stopped: false };
        ticks.push(timer);
        return () => (timer.stopped = true);
      },
    },
  );
  const elapse = () => {
    for (const timer of ticks) if (!timer.stopped) timer.tick();
  };
  return { written, ticks, progress, elapse };
}

test('in a log, the latest progress is written as a whole line every few seconds, only when it changed', () => {
  const { written, ticks, progress, elapse } = harness(false);
  assert.deepEqual(
    ticks.map((timer) => timer.ms),
    [PROGRESS_EVERY_MS],
  );
  progress.update('1/9 scenarios');
  progress.update('2/9 scenarios');
  assert.deepEqual(written, [], 'nothing before the interval passes');
  elapse();
  elapse();
  progress.update('3/9 scenarios');
  elapse();
  assert.deepEqual(written, ['progress: 2/9 scenarios\n', 'progress: 3/9 scenarios\n']);
  progress.clear();
  progress.update('9/9 scenarios');
  elapse();
  assert.equal(written.length, 2, 'nothing once cleared, so nothing runs into the summary');
});

test('on a terminal, one line rewrites itself and is wiped when cleared', () => {
  const { written, ticks, progress } = harness(true);
  assert.equal(ticks.length, 0);
  progress.update('1/9 scenarios');
  progress.clear();
  assert.deepEqual(written, [`\r${'1/9 scenarios'.padEnd(39)}`, `\r${' '.repeat(39)}\r`]);
});

test('the progress counts errored scenarios apart from failed ones, as the closing line does', () => {
  const seen = tally(
    (['passed', 'failed', 'errored', 'errored'] as const).map((status, i) => scenarioResult(`s${i}`, status)),
  );
  assert.equal(
    scenarioProgress(seen, 9, scenarioResult('s3', 'errored')),
    '4/9 scenarios, 1 failed, 2 errored · last: errored features/inbox/X1.feature:3',
  );
  assert.equal(
    scenarioProgress(tally([scenarioResult('s0', 'passed')]), 9, scenarioResult('s0', 'passed')),
    '1/9 scenarios, 0 failed · last: passed features/inbox/X1.feature:3',
  );
});
