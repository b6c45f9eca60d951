import { renameSync, writeFileSync } from 'node:fs';

/**
 * Writes `text` to `path` whole: judges run side by side, and what one reads of another's files (every
 * judged.json, the README's tables) must be the old text or the new, never half of one.
 */
export function replaceFile(path: string, text: string): void {
  const partial = `${path}.partial-${process.pid}`;
  writeFileSync(partial, text);
  renameSync(partial, path);
}
