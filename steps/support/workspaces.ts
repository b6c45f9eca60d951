import { existsSync, mkdirSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { basename, dirname, isAbsolute, join, relative, sep } from 'node:path';
import type { KitWorld } from './world.js';

/** Plants a file at `path`, replacing whatever stands there, with its directories. */
export function plant(path: string, content: string | Buffer): void {
  mkdirSync(dirname(path), { recursive: true });
  rmSync(path, { recursive: true, force: true });
  writeFileSync(path, content);
}

/** `{workspace:<name>}` in a scenario's text stands for that workspace's absolute path. */
export function withWorkspaces(world: KitWorld, text: string): string {
  return text.replace(/\{workspace:([\w-]+)\}/g, (_, name: string) => world.workspace(name));
}

/**
 * The runtime's managed output directory, which the kit may change only where it is the kit's
 * own: it must resolve into the scenario's directory or the run's (where a runtime serving several
 * scenarios keeps its state).
 */
export async function ownManagedOutputDirectory(world: KitWorld): Promise<string> {
  const { directory } = await world.driver.call('tool-output.files');
  const parent = resolved(dirname(directory));
  if (!isWithin(world.dir, parent) && !isWithin(world.runDir, parent)) {
    throw new Error(
      `the managed output directory ${directory} lies outside the scenario's directory ${world.dir} and the run's ${world.runDir}: the kit changes only its own`,
    );
  }
  return directory;
}

/** A directory beside the managed output directory whose name extends its name. */
export async function besideManagedOutputDirectory(world: KitWorld): Promise<string> {
  return `${await ownManagedOutputDirectory(world)}-beside`;
}

function isWithin(directory: string, path: string): boolean {
  const within = relative(realpathSync(directory), path);
  return within !== '..' && !within.startsWith(`..${sep}`) && !isAbsolute(within);
}

/** Where a path resolves to: its nearest existing ancestor's real path, with the rest of it. */
function resolved(path: string): string {
  const rest: string[] = [];
  let existing = path;
  while (!existsSync(existing) && dirname(existing) !== existing) {
    rest.unshift(basename(existing));
    existing = dirname(existing);
  }
  return join(realpathSync(existing), ...rest);
}
