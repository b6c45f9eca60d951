import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
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
