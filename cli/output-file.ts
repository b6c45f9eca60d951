import { accessSync, constants, existsSync, mkdirSync, statSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { KitInputError } from '../harness/input-error.js';

/** An output the user named: the flag that named it, and the path. */
export interface OutputPath {
  flag: string;
  path: string;
}

/**
 * Refuses, before anything runs, an output that could not be written: a directory where a file
 * goes (or a file where a directory goes), a path below a file, or a place the kit may not write.
 * A report lost after a long run costs the whole run.
 */
export function checkOutputPath({ flag, path }: OutputPath, kind: 'file' | 'directory' = 'file'): void {
  const full = resolve(path);
  if (existsSync(full)) {
    const isDirectory = statSync(full).isDirectory();
    if (kind === 'file' && isDirectory) throw new KitInputError(flag, `${path} is a directory, not a file`);
    if (kind === 'directory' && !isDirectory) throw new KitInputError(flag, `${path} is a file, not a directory`);
    writable(flag, full, path);
    return;
  }
  let parent = dirname(full);
  while (!existsSync(parent)) parent = dirname(parent);
  if (!statSync(parent).isDirectory()) throw new KitInputError(flag, `${path} is below ${parent}, which is a file`);
  writable(flag, parent, path);
}

function writable(flag: string, full: string, path: string): void {
  try {
    accessSync(full, constants.W_OK);
  } catch {
    throw new KitInputError(flag, `${path} is not writable here`);
  }
}

/**
 * A report Cucumber could not write (a full disk, say) ends the run as an input error naming the
 * flags that asked for reports, since Cucumber does not say which one; any other error is returned as it is.
 */
export function unwritableReport(error: unknown, outputs: OutputPath[]): unknown {
  const { code, message } = error as NodeJS.ErrnoException;
  if (outputs.length === 0 || !code || !/^E(NOSPC|DQUOT|ROFS|ACCES|PERM|ISDIR|NOTDIR|IO)$/.test(code)) return error;
  return new KitInputError(
    [...new Set(outputs.map((output) => output.flag))].join(', '),
    `a report could not be written: ${message}`,
  );
}

/**
 * Writes a report or other output file, creating its directory, as CI report paths usually need.
 * A failure (a full disk, say) names the flag in one line rather than ending in a stack.
 */
export function writeOutputFile(out: OutputPath, text: string): void {
  outputWriting(out, () => {
    mkdirSync(dirname(out.path), { recursive: true });
    writeFileSync(out.path, text);
  });
}

/** Runs `write`, which writes the output `out`; its failure names the flag, as `writeOutputFile`'s does. */
export function outputWriting<T>({ flag, path }: OutputPath, write: () => T): T {
  try {
    return write();
  } catch (error) {
    const { code, message } = error as NodeJS.ErrnoException;
    throw new KitInputError(flag, `could not write ${path}: ${code ?? message}`);
  }
}
