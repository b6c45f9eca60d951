import { readFileSync, statSync } from 'node:fs';
import { relative } from 'node:path';
import { KitInputError } from '../input-error.js';

/** How a file is named in messages: relative to where the user stands. */
export function displayPath(path: string): string {
  return relative(process.cwd(), path) || path;
}

const utf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * The text of a file the kit reads. Only a regular file is read: a directory is named as one,
 * and a FIFO or device, which could block forever or never end, is refused before it is opened.
 * Text that is not UTF-8 is refused rather than read with replacement characters.
 */
export function readInputText(path: string): string {
  const file = displayPath(path);
  let bytes: Buffer;
  try {
    const stat = statSync(path);
    if (stat.isDirectory()) throw new KitInputError(file, 'is a directory, not a file');
    if (!stat.isFile()) throw new KitInputError(file, 'is not a regular file');
    bytes = readFileSync(path);
  } catch (error) {
    if (error instanceof KitInputError) throw error;
    const { code, message } = error as NodeJS.ErrnoException;
    throw new KitInputError(
      file,
      code === 'ENOENT' ? 'no such file' : code === 'ENOTDIR' ? 'no such file (a parent is a file)' : message,
    );
  }
  try {
    return utf8.decode(bytes);
  } catch {
    const at = firstInvalidUtf8(bytes);
    const line = bytes.subarray(0, at).toString('latin1').split('\n').length;
    throw new KitInputError(`${file}:${line}`, `is not UTF-8 text (an invalid byte at offset ${at})`);
  }
}

/** The offset of the first byte that breaks UTF-8, found by a binary search over prefixes. */
function firstInvalidUtf8(bytes: Buffer): number {
  // A streamed prefix decodes while it is valid up to a possibly cut final character.
  const decodes = (end: number, stream: boolean) => {
    try {
      new TextDecoder('utf-8', { fatal: true }).decode(bytes.subarray(0, end), { stream });
      return true;
    } catch {
      return false;
    }
  };
  let [good, bad] = [0, bytes.length];
  while (good < bad) {
    const middle = Math.ceil((good + bad) / 2);
    if (decodes(middle, true)) good = middle;
    else bad = middle - 1;
  }
  // The bad sequence starts at most three bytes back, where the last whole character ends.
  while (good > 0 && !decodes(good, false)) good -= 1;
  return good;
}
