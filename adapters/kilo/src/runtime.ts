import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { platformBinaries, type ServerRuntime } from '../../opencode/shared/server/server.js';

/**
 * Kilo CLI as its server is started, from the `@kilocode/cli` this folder pins (7.7.7): a fork of
 * OpenCode serving its routes, under names of its own.
 */
export const KILO_SERVER: ServerRuntime = {
  title: 'Kilo CLI',
  packageDir: join(dirname(fileURLToPath(import.meta.url)), '..', 'node_modules'),
  packageName: '@kilocode/cli',
  // The wrapper package's postinstall only copies the binary next to its launcher.
  binaries: platformBinaries('@kilocode/cli', 'kilo'),
  // OpenCode's offline switches under Kilo's prefix, all read by the 7.7.7 binary.
  variablePrefix: 'KILO_',
  environment: {
    // Kilo's own product telemetry, on unless told otherwise (anything but `all` turns it off).
    KILO_TELEMETRY_LEVEL: 'off',
    // Kilo uploads sessions to its cloud unless told otherwise.
    KILO_DISABLE_SESSION_INGEST: '1',
  },
  directoryName: 'kilo',
  // The file `PATCH /global/config` writes back: Kilo creates `kilo.jsonc` at start when none is
  // there, and merges into it, not into a `kilo.json` beside it.
  configFile: 'kilo.jsonc',
  configSchema: 'https://app.kilo.ai/config.json',
  // At start, 7.7.7 migrates an existing user's global configuration once: lacking this mark and
  // finding a configuration that sets no bash permission, it writes `permission.bash: "allow"`
  // into it ("migrated bash permission to allow for existing user"), and bash would never ask. A
  // fresh installation records the mark without migrating, as the kit's configuration is new.
  freshInstallMarks: ['.bash-permission-migrated'],
  database: 'kilo.db',
  directoryHeader: 'x-kilo-directory',
};

/**
 * What Kilo's V2 runner says in its own words, those of OpenCode it kept. Its binary holds
 * OpenCode's instruction texts and system-update wrapper unchanged.
 */
export const KILO_TEXTS: Record<string, string> = {
  'instructions.supersession': 'These instructions replace all previously loaded ambient instructions.',
  'instructions.revocation': 'Previously loaded instructions no longer apply.',
  'system-message.fallback': '<system-update>\n{text}\n</system-update>',
  // The V2 build agent's own prompt (its AgentPlugin), unchanged in 7.7.7's binary.
  'agent.prompt':
    'You are an AI coding agent. Help the user accomplish software engineering tasks by inspecting the workspace, making targeted changes, and using tools according to the configured permissions.',
  'prompt.default-delivery': 'steer',
  'approval.saved-for-project': 'yes',
};
