import { lstatSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** What a judged runtime may leave in the machine's temporary directory before its judge fails. */
const LEFT_AT_MOST = 50 * 2 ** 20;

/** The names in the machine's temporary directory now. */
export function temporaryEntries(): Set<string> {
  return new Set(readdirSync(tmpdir()));
}

/**
 * The entries that appeared in the temporary directory since `before` and are still there, when
 * they hold more than a few megabytes: a runtime that unpacks itself there on every start fills a
 * CI machine's disk over a judge (its adapter gives it a temporary directory in the scenario's).
 */
export function temporaryLeftovers(before: Set<string>): string | undefined {
  const left = readdirSync(tmpdir()).filter((name) => !before.has(name));
  const bytes = left.reduce((sum, name) => sum + sizeOf(join(tmpdir(), name)), 0);
  if (bytes <= LEFT_AT_MOST) return undefined;
  const shown = left.slice(0, 3).join(', ');
  return `${left.length} entries (${(bytes / 2 ** 20).toFixed(0)} MiB) left in ${tmpdir()} by the run, such as ${shown}: set the runtime's TMPDIR in the scenario's directories`;
}

function sizeOf(path: string): number {
  try {
    const stat = lstatSync(path);
    if (!stat.isDirectory()) return stat.size;
    return readdirSync(path).reduce((sum, name) => sum + sizeOf(join(path, name)), 0);
  } catch {
    return 0;
  }
}
