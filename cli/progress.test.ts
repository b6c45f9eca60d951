import { test } from 'node:test';
import assert from 'node:assert/strict';
import { PROGRESS_EVERY_MS, progressLine } from './progress.js';

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
