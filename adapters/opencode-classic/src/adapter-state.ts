import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ServerSettings } from '../../opencode/shared/server/server.js';

/** One session as the adapter knows it: OpenCode's ID, its location, the kit's selections. */
export interface SessionRecord {
  id: string;
  directory: string;
  /** The model the kit selected; the classic routes take the model with each prompt. */
  model?: string;
  /** The agent the kit selected; the classic routes take the agent with each prompt. */
  agent?: string;
}

/** What the kit configured that OpenCode reads only from its configuration file at start. */
export type ConfiguredSettings = Pick<
  ServerSettings,
  'otherModels' | 'toolOutput' | 'compaction' | 'agents' | 'skills' | 'environment'
>;

interface Saved {
  sessions: Record<string, SessionRecord>;
  kitIds: Record<string, string>;
  declinedDoomLoops: string[];
  settings: ConfiguredSettings;
}

const FILE = 'kit-classic-adapter.json';

/**
 * What the adapter must remember across a restart of its process beside OpenCode's own store
 * (`OPENCODE_DB`, which holds the sessions and their messages): the kit's names for OpenCode's
 * session and message IDs (OpenCode chooses them), the sessions whose doom-loop request the kit
 * declined, and the settings the kit configured, which the adapter writes into `opencode.json`
 * before each start. Kept in a file of the scenario's store, rewritten in one step on each change.
 */
export class AdapterState {
  readonly sessions = new Map<string, SessionRecord>();
  /** OpenCode message ID → the kit's. */
  readonly kitIds = new Map<string, string>();
  /** Sessions whose doom-loop permission request the kit declined. */
  readonly declinedDoomLoops = new Set<string>();
  settings: ConfiguredSettings = {};
  private readonly file: string;

  constructor(storeDir: string) {
    this.file = join(storeDir, FILE);
    let saved: Saved | undefined;
    try {
      saved = JSON.parse(readFileSync(this.file, 'utf8')) as Saved;
    } catch {
      return;
    }
    for (const [name, session] of Object.entries(saved.sessions)) this.sessions.set(name, session);
    for (const [id, kitId] of Object.entries(saved.kitIds)) this.kitIds.set(id, kitId);
    for (const id of saved.declinedDoomLoops) this.declinedDoomLoops.add(id);
    this.settings = saved.settings;
  }

  save(): void {
    const saved: Saved = {
      sessions: Object.fromEntries(this.sessions),
      kitIds: Object.fromEntries(this.kitIds),
      declinedDoomLoops: [...this.declinedDoomLoops],
      settings: this.settings,
    };
    const next = `${this.file}.next`;
    writeFileSync(next, `${JSON.stringify(saved)}\n`);
    renameSync(next, this.file);
  }
}
