import { existsSync, realpathSync } from 'node:fs';
import { dirname, isAbsolute, join, relative, resolve } from 'node:path';

/** A path a tool refused because it lies outside the location's filesystem authority. */
export class PathRefused extends Error {
  constructor(path: string, why: string) {
    super(`${path}: ${why}`);
    this.name = 'PathRefused';
  }
}

/**
 * Resolves a tool's path argument within the session location. Relative paths only; `..` and
 * symbolic links may not lead out. Absolute paths are refused unless `allowed` grants them (the
 * Managed Tool Output Files, which ordinary tools must be able to read).
 */
export function resolveInLocation(
  location: string,
  path: string,
  allowed: (absolute: string) => boolean = () => false,
): string {
  if (isAbsolute(path)) {
    if (allowed(path)) return path;
    throw new PathRefused(path, 'absolute paths are outside the location');
  }
  const target = resolve(location, path);
  if (escapes(location, target)) throw new PathRefused(path, 'the path leads outside the location');
  // A path that does not exist yet is judged by the nearest ancestor that does.
  let existing = target;
  while (!existsSync(existing)) existing = dirname(existing);
  if (escapes(realpathSync(location), join(realpathSync(existing), relative(existing, target)))) {
    throw new PathRefused(path, 'a symbolic link leads outside the location');
  }
  return target;
}

function escapes(root: string, target: string): boolean {
  const rel = relative(root, target);
  return rel === '..' || rel.startsWith('../') || isAbsolute(rel);
}
