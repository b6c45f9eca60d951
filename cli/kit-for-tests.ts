import assert from 'node:assert/strict';
import { execFile, spawnSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** What one `kit` command printed and how it ended, run as a user would run it. */
export interface KitRun {
  status: number | null;
  stdout: string;
  stderr: string;
}

export function kit(args: string[], env: NodeJS.ProcessEnv = {}): KitRun {
  const run = spawnSync(process.execPath, ['cli/bin.js', ...args], {
    encoding: 'utf8',
    env: { ...process.env, ...env },
  });
  return { status: run.status, stdout: run.stdout, stderr: run.stderr };
}

/** The same, without waiting: for tests that run many short commands side by side. */
export function kitAsync(args: string[], env: NodeJS.ProcessEnv = {}): Promise<KitRun> {
  return new Promise((done) => {
    const child = execFile(
      process.execPath,
      ['cli/bin.js', ...args],
      { encoding: 'utf8', env: { ...process.env, ...env } },
      (_error, stdout, stderr) => done({ status: child.exitCode, stdout, stderr }),
    );
  });
}

/** A fresh directory for one test's files. */
export function scratch(name: string): string {
  return mkdtempSync(join(tmpdir(), `kit-${name}-`));
}

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
