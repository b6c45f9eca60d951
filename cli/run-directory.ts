import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { ScenarioResult } from '../harness/report/scenario-results.js';
import { suiteSettings } from '../harness/suite/suite-settings.js';

/**
 * The directory one `kit run` makes its scenarios' directories in, below the host's scenario root
 * (`KIT_TMPDIR`, or a tmpfs): what the run made can then be removed as a whole, when it is
 * interrupted or when nothing in it is worth keeping.
 */
export function makeRunDirectory(): string {
  const directory = mkdtempSync(join(suiteSettings().scenarioRoot, 'kit-run-'));
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
