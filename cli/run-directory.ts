import { KEPT_INDEX } from '../harness/store/store-location.js';
import { existsSync, lstatSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { KitInputError } from '../harness/input-error.js';
import { basename, dirname, join } from 'node:path';
import type { ScenarioResult } from '../harness/report/scenario-results.js';
import { suiteSettings } from '../harness/suite/suite-settings.js';

/** How a run's directory is named below the scenario root. */
const RUN_PREFIX = 'kit-run-';

/**
 * The directory one `kit run` makes its scenarios' directories in, below the host's scenario root
 * (`KIT_TMPDIR`, or a tmpfs): what the run made can then be removed as a whole, when it is
 * interrupted or when nothing in it is worth keeping.
 */
export function makeRunDirectory(): string {
  const root = suiteSettings().scenarioRoot;
  if (!statSync(root, { throwIfNoEntry: false })?.isDirectory())
    throw new KitInputError(
      process.env.KIT_TMPDIR ? 'KIT_TMPDIR' : 'the scenario root',
      `${root} is not a directory: make it, or name another where scenarios may make their directories`,
    );
  const directory = mkdtempSync(join(root, RUN_PREFIX));
  // The steps read their scenario root from the environment this process shares with them.
  process.env.KIT_TMPDIR = directory;
  return directory;
}

/** Removes the run's directory if no scenario's directory was kept in it. */
export function removeIfEmpty(directory: string): void {
  try {
    if (readdirSync(directory).length === 0) rmSync(directory, { recursive: true, force: true });
  } catch {
    // Already gone.
  }
}

/**
 * Removes the kept directories of the scenarios not worth keeping (those the baseline expected to
 * fail, say), and the run's directory with them once it holds nothing else.
 */
export function discardKept(results: readonly ScenarioResult[], keep: (result: ScenarioResult) => boolean): void {
  for (const result of results) {
    if (!result.kept || keep(result)) continue;
    rmSync(result.kept, { recursive: true, force: true });
    removeIfEmpty(dirname(result.kept));
  }
}

/**
 * Records, in the run's directory, which scenario each kept directory belongs to, and returns that
 * directory: the one place a run's kept files are found, and marked as a finished run's.
 */
export function recordKept(kept: readonly ScenarioResult[]): string | undefined {
  const [first] = kept;
  if (!first?.kept) return undefined;
  const directory = dirname(first.kept);
  const lines = kept.map((result) => `${result.id}\t${basename(result.kept!)}\t${result.uri}:${result.line}\n`);
  writeFileSync(join(directory, KEPT_INDEX), lines.join(''));
  return directory;
}

/** The one line that points at what a run kept. */
export function keptLine(directory: string, scenarios: number): string {
  return `kept: ${directory}, the directories of ${scenarios} scenario(s) not as expected (listed in ${KEPT_INDEX}; kit inspect <directory> reads a store; kit clean removes what runs kept)`;
}

/**
 * Removes what the current user's finished runs kept below `root` (the runs' directories that list
 * their kept scenarios); a run still going has no such list yet, and is left alone, as is another
 * user's run: a scenario root such as /dev/shm is shared. Returns what it removed.
 */
export function removeKeptRuns(root: string): string[] {
  const removed: string[] = [];
  let names: string[];
  try {
    names = readdirSync(root);
  } catch {
    return removed;
  }
  // Without user IDs (Windows) the scenario root is the user's own temporary directory.
  const uid = process.getuid?.();
  for (const name of names.filter((n) => n.startsWith(RUN_PREFIX)).sort()) {
    const directory = join(root, name);
    const stat = lstatSync(directory, { throwIfNoEntry: false });
    if (!stat?.isDirectory() || (uid !== undefined && stat.uid !== uid)) continue;
    if (!existsSync(join(directory, KEPT_INDEX))) continue;
    rmSync(directory, { recursive: true, force: true });
    removed.push(directory);
  }
  return removed;
}
