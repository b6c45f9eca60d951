import { readFileSync, statSync } from 'node:fs';
import { isAbsolute, normalize, relative, resolve } from 'node:path';
import { KitInputError } from '../input-error.js';

/**
 * How a file is named in messages: a relative path as it was typed (it is taken from the working
 * directory); an absolute one relative to where the user stands when it is below there, absolute
 * otherwise, not as a climb of `../` out of the working directory.
 */
export function displayPath(path: string): string {
  if (!isAbsolute(path)) return normalize(path);
  const below = relative(process.cwd(), path);
  if (below === '') return path;
  return below.startsWith('..') || isAbsolute(below) ? resolve(path) : below;
}

const utf8 = new TextDecoder('utf-8', { fatal: true });

/** Larger than any input the kit writes or a person keeps; beyond it parsing alone would take long. */
const MAX_INPUT_BYTES = 256 * 2 ** 20;

/**
 * The text of a file the kit reads. Only a regular file is read: a directory is named as one,
 * and a FIFO or device, which could block forever or never end, is refused before it is opened,
 * as is a file larger than `maxBytes`. Text that is not UTF-8 is refused rather than read with
 * replacement characters; a byte-order mark, which some editors write, is dropped by the decoder.
 */
export function readInputText(path: string, maxBytes = MAX_INPUT_BYTES): string {
  const file = displayPath(path);
  let bytes: Buffer;
  try {
    const stat = statSync(path);
    if (stat.isDirectory()) throw new KitInputError(file, 'is a directory, not a file');
    if (!stat.isFile()) throw new KitInputError(file, 'is not a regular file');
    if (stat.size > maxBytes)
      throw new KitInputError(
        file,
        `is ${mebibytes(stat.size)}, more than the ${mebibytes(maxBytes)} such a file can be`,
      );
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

function mebibytes(bytes: number): string {
  return bytes < 2 ** 20 ? `${Math.ceil(bytes / 2 ** 10)} KiB` : `${Math.ceil((bytes / 2 ** 20) * 10) / 10} MiB`;
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
