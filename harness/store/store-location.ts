import { existsSync, readdirSync, statSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { KitInputError } from '../input-error.js';
import { displayPath } from '../input/input-file.js';

const STORE_FILE = 'runtime.sqlite';
/** Where a scenario's directory holds the runtime's store. */
const SCENARIO_STORE = join('workspaces', '.store');
/** Where `kit replay --keep <directory>` keeps it. */
const REPLAY_STORE = 'store';
/** The file in a run's directory that lists what it kept: a finished run's, which `kit clean` may remove. */
export const KEPT_INDEX = 'kept.txt';

const isDirectory = (path: string) => existsSync(path) && statSync(path).isDirectory();

/**
 * The store file behind any path the kit prints: the file itself, a store directory, a scenario's
 * kept directory (its store is in `workspaces/.store`), its `workspaces` or a session's location in
 * them, or a run's kept directory when it keeps one scenario's (or its list of them, kept.txt), or a
 * directory `kit replay --keep` kept. A run's directory that keeps several names them, for the user
 * to pick one.
 */
export function storeFile(path: string): string {
  if (basename(path) === KEPT_INDEX && existsSync(path)) return storeFile(dirname(path));
  if (!isDirectory(path)) return path;
  if (basename(path) === '.store' && !existsSync(join(path, STORE_FILE))) throw notReference(path);
  const stores = [
    path,
    join(path, SCENARIO_STORE),
    join(path, REPLAY_STORE),
    // A scenario's `workspaces`, and a session's location in them.
    ...(basename(path) === dirname(SCENARIO_STORE) ? [join(path, '.store')] : []),
    ...(basename(dirname(path)) === dirname(SCENARIO_STORE) ? [join(dirname(path), '.store')] : []),
  ];
  const found = stores.find((store) => existsSync(join(store, STORE_FILE)));
  if (found) return join(found, STORE_FILE);
  const foreign = stores.find((store) => store !== path && basename(store) === '.store' && isDirectory(store));
  if (foreign) throw notReference(foreign);
  const kept = readdirSync(path)
    .filter((name) => isDirectory(join(path, name, SCENARIO_STORE)))
    .sort();
  const scenarios = kept.filter((name) => existsSync(join(path, name, SCENARIO_STORE, STORE_FILE)));
  if (scenarios.length === 0 && kept.length > 0) throw notReference(join(path, kept[0]!, SCENARIO_STORE));
  if (scenarios.length === 1) return join(path, scenarios[0]!, SCENARIO_STORE, STORE_FILE);
  if (scenarios.length > 1)
    throw new KitInputError(
      displayPath(path),
      `keeps the directories of ${scenarios.length} scenarios: name one (${scenarios
        .slice(0, 3)
        .map((name) => displayPath(join(path, name)))
        .join(', ')}${scenarios.length > 3 ? ', ...' : ''})`,
    );
  return join(path, STORE_FILE);
}

/** A kept store of a runtime other than the reference: its own files, which only that runtime reads. */
function notReference(store: string): KitInputError {
  return new KitInputError(
    displayPath(store),
    `is no reference store (it has no ${STORE_FILE}): the runtime under test keeps its own state there, if any, in its own format; kit inspect reads only the reference's ${STORE_FILE} (look at that runtime's files with its own tools, and at the failure's requests and records in the run's report)`,
  );
}
