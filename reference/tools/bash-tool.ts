import { spawn } from 'node:child_process';
import { statSync } from 'node:fs';
import { isAbsolute, relative, resolve } from 'node:path';
import type { Tool } from './tool.js';

/**
 * The shell every coding runtime offers: `command` runs with `sh -c` in the working directory, or
 * in `workdir` (relative to it) when given. Its output (stdout and stderr as they arrive) is the
 * result; a non-zero exit fails the call with that output and the status. Stopping the drain
 * kills the command.
 *
 * Permission: the agent's `bash` rule decides, and the user is asked when it has none. The shell
 * is not sandboxed. A `workdir` outside the working directory needs the external_directory
 * authority before the command starts; absolute paths written in the command itself only add an
 * advisory note to the result, since a scan of shell text proves nothing about what it touches.
 */
export const bashTool: Tool = {
  name: 'bash',
  description:
    'Runs `command` with sh -c in the working directory (or in `workdir`) and returns its output; fails when it exits non-zero.',
  parameters: {
    type: 'object',
    properties: { command: { type: 'string' }, workdir: { type: 'string' } },
    required: ['command'],
  },
  unruled: 'ask',
  async execute(input, { location, signal, authorize }) {
    const command = String(input.command ?? '');
    const cwd = input.workdir === undefined ? location : resolve(location, String(input.workdir));
    if (outside(location, cwd) && !(await authorize('external_directory'))) {
      throw new Error(`running in a directory outside the working directory was not approved: ${cwd}`);
    }
    const output = await run(command, cwd, signal);
    const named = absolutePathsOutside(location, command);
    return named.length === 0
      ? output
      : `${output}\n(note: the command names paths outside the working directory: ${named.join(', ')})`;
  },
};

function outside(root: string, target: string): boolean {
  const rel = relative(root, target);
  return rel === '..' || rel.startsWith('../') || isAbsolute(rel);
}

/** Absolute paths written as words of the command, outside the location; device files aside. */
function absolutePathsOutside(location: string, command: string): string[] {
  const words = command.match(/(?<=^|[\s'"=<>|;&(])\/[^\s'"<>|;&)]+/g) ?? [];
  return [...new Set(words.filter((word) => !isDevice(word) && outside(location, word)))];
}

/** `/dev/null`, `/dev/zero` and the like are no place a command works in; a path below `/dev/shm` is. */
function isDevice(path: string): boolean {
  try {
    const stats = statSync(path);
    return stats.isCharacterDevice() || stats.isBlockDevice();
  } catch {
    return false;
  }
}

function run(command: string, cwd: string, signal: AbortSignal): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn('sh', ['-c', command], {
      cwd,
      stdio: ['ignore', 'pipe', 'pipe'],
      signal,
      killSignal: 'SIGKILL',
    });
    const chunks: Buffer[] = [];
    child.stdout.on('data', (chunk: Buffer) => chunks.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => chunks.push(chunk));
    child.on('error', reject);
    child.on('close', (code, killed) => {
      const output = Buffer.concat(chunks).toString('utf8');
      if (code === 0) resolve(output);
      else
        reject(
          new Error(`${output}${output === '' || output.endsWith('\n') ? '' : '\n'}exit status ${code ?? killed}`),
        );
    });
  });
}
