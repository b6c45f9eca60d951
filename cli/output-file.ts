import {
  closeSync,
  existsSync,
  mkdirSync,
  openSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
  writeSync,
} from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { KitInputError } from '../harness/input-error.js';

/** An output the user named: the flag that named it, and the path. */
export interface OutputPath {
  flag: string;
  path: string;
}

/**
 * Refuses, before anything runs, an output that could not be written: a directory where a file
 * goes (or a file where a directory goes), a path below a file, or a place where no file can be
 * made. Permission bits do not tell (root may write anywhere; /proc and /sys refuse anyway), so
 * the place is tried: an existing file is written nothing (a full device refuses even that), otherwise a file is created and
 * removed in the nearest existing directory. A report lost after a long run costs the whole run.
 */
export function checkOutputPath({ flag, path }: OutputPath, kind: 'file' | 'directory' = 'file'): void {
  const full = resolve(path);
  // Linux refuses a name over 255 bytes and a path of 4096: the nearest existing directory cannot tell.
  if (Buffer.byteLength(full) >= 4096 || full.split('/').some((name) => Buffer.byteLength(name) > 255))
    throw new KitInputError(flag, `${path} cannot be written here (ENAMETOOLONG: a name or the path is too long)`);
  if (existsSync(full)) {
    const isDirectory = statSync(full).isDirectory();
    if (kind === 'file' && isDirectory) throw new KitInputError(flag, `${path} is a directory, not a file`);
    if (kind === 'directory' && !isDirectory) throw new KitInputError(flag, `${path} is a file, not a directory`);
    if (isDirectory) creatable(flag, full, path);
    else attempt(flag, path, () => emptyWrite(full));
    return;
  }
  let parent = dirname(full);
  while (!existsSync(parent)) parent = dirname(parent);
  if (!statSync(parent).isDirectory()) throw new KitInputError(flag, `${path} is below ${parent}, which is a file`);
  creatable(flag, parent, path);
}

/** Writes nothing to an existing file: a device that refuses every write (/dev/full) says so then. */
function emptyWrite(file: string): void {
  const fd = openSync(file, 'r+');
  try {
    writeSync(fd, new Uint8Array(0));
  } finally {
    closeSync(fd);
  }
}

/** Creates and removes a file in `directory`, which the output will be written below. */
function creatable(flag: string, directory: string, path: string): void {
  const probe = join(directory, `.kit-output-probe-${process.pid}`);
  attempt(flag, path, () => {
    closeSync(openSync(probe, 'wx'));
    rmSync(probe);
  });
}

function attempt(flag: string, path: string, write: () => void): void {
  try {
    write();
  } catch (error) {
    throw new KitInputError(flag, `${path} cannot be written here (${(error as NodeJS.ErrnoException).code})`);
  }
}

/**
 * A report Cucumber could not write (a full disk, say) ends the run as an input error naming the
 * flags that asked for reports, since Cucumber does not say which one; any other error is returned as it is.
 */
export function unwritableReport(error: unknown, outputs: OutputPath[]): unknown {
  const { code, message } = error as NodeJS.ErrnoException;
  // A stream that failed on a write (a full device) is destroyed, and Cucumber's end of it says only that.
  const failed = /^(E(NOSPC|DQUOT|ROFS|ACCES|PERM|ISDIR|NOTDIR|IO)|ERR_STREAM_DESTROYED)$/;
  if (outputs.length === 0 || !code || !failed.test(code)) return error;
  return new KitInputError(
    [...new Set(outputs.map((output) => output.flag))].join(', '),
    `a report could not be written: ${code === 'ERR_STREAM_DESTROYED' ? 'its file refused a write (a full device?)' : message}`,
  );
}

/**
 * Writes a report or other output file, creating its directory, as CI report paths usually need.
 * A failure (a full disk, say) names the flag in one line rather than ending in a stack.
 */
export function writeOutputFile(out: OutputPath, text: string): void {
  // Written beside and renamed over: a write cut short (a full disk) leaves the file as it was, never half a
  // report. A device or pipe named as the output (/dev/stdout) is written as it is.
  const partial = join(dirname(out.path), `.${basename(out.path)}.${process.pid}.partial`);
  outputWriting(out, () => {
    mkdirSync(dirname(out.path), { recursive: true });
    if (statSync(out.path, { throwIfNoEntry: false })?.isFile() === false) return writeFileSync(out.path, text);
    try {
      writeFileSync(partial, text);
      renameSync(partial, out.path);
    } finally {
      rmSync(partial, { force: true });
    }
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
