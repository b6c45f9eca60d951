import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { ToolOutputWriteMode } from '../tool-output-faults.js';
import type { CommandTable } from '../command.js';
import type { RuntimeHost } from '../runtime-host.js';

/** The Model Tool Output limit, the Managed Tool Output Files, and faults in writing them. */
export function toolOutputCommands({ runtime, toolOutputFaults }: RuntimeHost): CommandTable {
  return {
    'tool-output.configure': (c) =>
      runtime.configureToolOutput({ maxLines: Number(c.maxLines), maxBytes: Number(c.maxBytes) }),
    'tool-output.files': async () => {
      const directory = runtime.toolOutputDirectory;
      const names = await readdir(directory).catch(() => []);
      return { directory, files: names.sort().map((name) => join(directory, name)) };
    },
    'tool-output.held': () => toolOutputFaults.whenHeld(),
    'fault.tool-output-writes': (c) => toolOutputFaults.set(c.mode as ToolOutputWriteMode),
  };
}
