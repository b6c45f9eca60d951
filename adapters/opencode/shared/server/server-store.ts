import { lstatSync, mkdirSync, mkdtempSync, readlinkSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { linkInOneStep, type ServerRuntime } from './server.js';

/**
 * Where a server keeps its state (database, data, configuration directories). One server serves
 * the scenarios of an adapter process one after another, so its store cannot be a scenario's own
 * directory, which the kit removes once the scenario ends: it is in the run's directory, and each
 * scenario's store links to it, so a restart over that store finds the same state again.
 */
const LINK = 'server-store';

export function createServerStore(runDir: string): string {
  return mkdtempSync(join(runDir, 'server-store-'));
}

/** The server store a scenario's store links to (the one its first process used). */
export function linkedServerStore(scenarioStore: string): string {
  const link = join(scenarioStore, LINK);
  try {
    return readlinkSync(link);
  } catch {
    throw new Error(`a restarted process finds no server store: ${link} is not a link`);
  }
}

/** When the scenario's first process linked its store (ms): what the server logged before is another scenario's. */
export function scenarioOpenedAt(scenarioStore: string): number {
  return lstatSync(join(scenarioStore, LINK)).mtimeMs;
}

/** Links a scenario's store to the server store that serves it, in one step. */
export function linkScenario(scenarioStore: string, serverStore: string): void {
  mkdirSync(scenarioStore, { recursive: true });
  linkInOneStep(serverStore, join(scenarioStore, LINK));
}

/** Where OpenCode writes the files of tool output it bounded (observed in 1.18.33). */
export function toolOutputDirectory(runtime: ServerRuntime, serverStore: string): string {
  return join(serverStore, runtime.directoryName, 'data', runtime.directoryName, 'tool-output');
}

/**
 * The server store a scenario's process works over: a restarted one the store its scenario links
 * to; a scenario's first the store of the server it was left, or a new one, linked from the
 * scenario's store, its managed tool output emptied (each scenario's starts empty).
 */
export async function openServerStore(
  runtime: ServerRuntime,
  config: { instance: number; storeDir: string; runDir: string },
  kept: { settings: { storeDir: string } } | undefined,
): Promise<string> {
  if (config.instance > 0) return linkedServerStore(config.storeDir);
  const store = kept?.settings.storeDir ?? createServerStore(config.runDir);
  linkScenario(config.storeDir, store);
  await rm(toolOutputDirectory(runtime, store), { recursive: true, force: true });
  return store;
}
