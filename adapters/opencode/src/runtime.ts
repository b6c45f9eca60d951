import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { platformBinaries, type ServerRuntime } from '../shared/server/server.js';

/**
 * OpenCode as its server is started (1.18.33), from the `opencode-ai` installed in `packageDir`:
 * each adapter of its runners pins its own.
 */
export function opencodeServer(packageDir: string): ServerRuntime {
  return {
    title: 'OpenCode',
    packageDir,
    packageName: 'opencode-ai',
    binaries: [...platformBinaries('opencode', 'opencode'), join('opencode-ai', 'bin', 'opencode.exe')],
    variablePrefix: 'OPENCODE_',
    environment: {},
    directoryName: 'opencode',
    configFile: 'opencode.json',
    configSchema: 'https://opencode.ai/config.json',
    freshInstallMarks: [],
    database: 'opencode.db',
    directoryHeader: 'x-opencode-directory',
  };
}

/** OpenCode from the `opencode-ai` this folder pins. */
export const OPENCODE_SERVER = opencodeServer(join(dirname(fileURLToPath(import.meta.url)), '..', 'node_modules'));

/** What OpenCode 1.18.33's V2 runner says in its own words, as the handshake declares it. */
export const OPENCODE_TEXTS: Record<string, string> = {
  // The head of OpenCode's <system-update> when instruction files change (observed, 1.18.33).
  'instructions.supersession': 'These instructions replace all previously loaded ambient instructions.',
  // Its `removed` text when no instruction file is left (InstructionContext, 1.18.33).
  'instructions.revocation': 'Previously loaded instructions no longer apply.',
  // Its lowering of a chronological system message for every provider protocol but one
  // Anthropic model (ProviderShared.wrapSystemUpdate, & < > escaped), appended to the user
  // turn before it (OpenAIChat.lowerMessages).
  'system-message.fallback': '<system-update>\n{text}\n</system-update>',
  // The build agent's own prompt, sent as the first system part ahead of the epoch's baseline
  // (the runner's request system is [agent.system, baseline]); agents the kit defines have none.
  'agent.prompt':
    'You are an AI coding agent. Help the user accomplish software engineering tasks by inspecting the workspace, making targeted changes, and using tools according to the configured permissions.',
  // A prompt admitted without a delivery is steered (observed, 1.18.33).
  'prompt.default-delivery': 'steer',
  // A request answered `always` saves its patterns for the location's project in the store
  // (PermissionV2.reply, PermissionSaved.add), which every later request of it consults.
  'approval.saved-for-project': 'yes',
};
