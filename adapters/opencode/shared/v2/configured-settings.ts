import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ServerSettings } from '../server/server.js';

/** What the kit configured that OpenCode reads only from its configuration and environment at start. */
export type ConfiguredSettings = Pick<
  ServerSettings,
  'otherModels' | 'toolOutput' | 'compaction' | 'agents' | 'skills' | 'environment'
>;

const KEYS = ['otherModels', 'toolOutput', 'compaction', 'agents', 'skills', 'environment'] as const;

/** Kept in the scenario's store, so that a restarted process starts OpenCode with the same configuration. */
const FILE = 'kit-settings.json';

/** What the scenario configured before this process started: nothing for its first process. */
export function savedSettings(scenarioStore: string): ConfiguredSettings {
  try {
    return JSON.parse(readFileSync(join(scenarioStore, FILE), 'utf8')) as ConfiguredSettings;
  } catch {
    return {};
  }
}

/** Writes what the settings hold of the kit's configuration, in one step. */
export function saveSettings(scenarioStore: string, settings: ServerSettings): void {
  const configured = Object.fromEntries(
    KEYS.flatMap((key) => (settings[key] === undefined ? [] : [[key, settings[key]]])),
  );
  const file = join(scenarioStore, FILE);
  writeFileSync(`${file}.next`, `${JSON.stringify(configured)}\n`);
  renameSync(`${file}.next`, file);
}
