import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** What one `kit` command printed and how it ended, run as a user would run it. */
export interface KitRun {
  status: number | null;
  stdout: string;
  stderr: string;
}

/** Every directory this test process made, removed when it exits: the tests leave nothing behind. */
const made: string[] = [];
process.once('exit', () => {
  for (const dir of made) rmSync(dir, { recursive: true, force: true });
});

/** A fresh directory for one test's files. */
export function scratch(name: string): string {
  const dir = mkdtempSync(join(tmpdir(), `kit-${name}-`));
  made.push(dir);
  return dir;
}

/**
 * Where the `kit` commands this process runs put their scenario directories, so that what a run
 * keeps on purpose (the directories of failed scenarios) goes when the tests end. TMPDIR stays
 * as it is: it holds the transpile cache every process shares.
 */
let kitTmp: string | undefined;

/**
 * Runs one `kit` command as a user would, without blocking, so that the tests of a file can run
 * side by side. `env` adds to the environment; `cwd` is where the user stands.
 */
export function kit(args: string[], env: NodeJS.ProcessEnv = {}, cwd?: string): Promise<KitRun> {
  kitTmp ??= scratch('tmp');
  return new Promise((done) => {
    const child = execFile(
      process.execPath,
      [join(import.meta.dirname, 'bin.js'), ...args],
      { encoding: 'utf8', env: { ...process.env, KIT_TMPDIR: kitTmp, ...env }, maxBuffer: 64 * 1024 * 1024, cwd },
      (_error, stdout, stderr) => done({ status: child.exitCode, stdout, stderr }),
    );
  });
}

/**
 * The tests of a file that runs `kit` commands run side by side: a command mostly waits on
 * processes, timeouts and files. Bounded, so that a loaded machine slows the tests down rather
 * than starving the commands of the CPU their own timeouts assume.
 */
export const SIDE_BY_SIDE = { concurrency: 4 };

/** Bad input ends with exit 2 and one line naming what is wrong, never a stack trace. */
export function assertInputError(run: KitRun, pattern: RegExp): void {
  assert.equal(run.status, 2, run.stdout + run.stderr);
  assert.match(run.stderr, pattern);
  assert.equal(run.stderr.trimEnd().split('\n').length, 1, run.stderr);
  assert.doesNotMatch(run.stderr, /^\s+at /m);
}

/** The broken runtime of the README's quick start: INB-02's retry scenario fails against it. */
export const IGNORES_MESSAGE_IDS = [
  '--runtime',
  'fixtures/runtimes/ignores-message-ids.ts',
  '--rule',
  'INB-01',
  'INB-02',
];
