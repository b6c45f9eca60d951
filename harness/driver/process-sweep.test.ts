import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { once } from 'node:events';
import { ADAPTER_MARK, killMarkedAndSettle, markedProcesses, newAdapterMark } from './process-sweep.js';

const idle = (env: NodeJS.ProcessEnv) => {
  const child = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { env, stdio: 'ignore' });
  return child;
};

test('a sweep finds the processes started after it looked, each by its own mark, and none once killed', {
  skip: !existsSync('/proc/self/environ'),
}, async () => {
  const [mine, other] = [newAdapterMark(), newAdapterMark()];
  // Looked at first, so that what starts next is new to the sweep.
  assert.deepEqual(markedProcesses(mine), []);
  const first = idle({ [ADAPTER_MARK]: mine, PATH: process.env.PATH });
  const inner = idle({ PATH: process.env.PATH, [ADAPTER_MARK]: mine, LATER: '1' });
  const foreign = idle({ PATH: process.env.PATH, [ADAPTER_MARK]: other });
  try {
    await Promise.all([first, inner, foreign].map((child) => once(child, 'spawn')));
    assert.deepEqual(markedProcesses(mine).sort(), [first.pid, inner.pid].sort());
    assert.deepEqual(markedProcesses(other), [foreign.pid]);
    await killMarkedAndSettle(mine);
    assert.deepEqual(markedProcesses(mine), []);
    assert.deepEqual(markedProcesses(other), [foreign.pid], 'another mark is left alone');
  } finally {
    await killMarkedAndSettle(other);
  }
  assert.deepEqual(markedProcesses(other), []);
});
