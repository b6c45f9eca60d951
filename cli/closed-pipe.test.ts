import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { join } from 'node:path';
import { kit, scratch, SIDE_BY_SIDE } from './kit-for-tests.js';

/** Runs `kit` with its output piped to a reader that closed the pipe before the first line (`| head -0`). */
async function withClosedOutput(args: string[]): Promise<{ status: number | null; stderr: string }> {
  const child = spawn(process.execPath, [join(import.meta.dirname, 'bin.js'), ...args], {
    env: { ...process.env, KIT_TMPDIR: scratch('pipe') },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout.destroy();
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => {
    stderr += chunk;
  });
  const [status] = (await once(child, 'exit')) as [number | null];
  return { status, stderr };
}

describe('a closed pipe', SIDE_BY_SIDE, () => {
  test('does not change the exit code of a command that passes, nor add an error', async () => {
    const run = await withClosedOutput(['replay', 'fixtures/scripts/steer-mid-drain.json']);
    assert.deepEqual(run, { status: 0, stderr: '' });
  });

  test('leaves a command that finds a difference its own exit code', async () => {
    const dir = scratch('pipe-diff');
    const [steer, queue] = [join(dir, 'steer.json'), join(dir, 'queue.json')];
    assert.equal((await kit(['replay', 'fixtures/scripts/steer-mid-drain.json', '--out', steer])).status, 0);
    assert.equal((await kit(['replay', 'fixtures/scripts/queue-mid-drain.json', '--out', queue])).status, 0);
    assert.deepEqual(await withClosedOutput(['diff', steer, queue]), { status: 1, stderr: '' });
  });
});
