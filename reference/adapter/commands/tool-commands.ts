import { RuntimeError } from '../../errors.js';
import type { CommandTable } from '../command.js';
import { contributedTool } from '../kit-tools.js';
import type { RuntimeHost } from '../runtime-host.js';

/** The kit's tool contributions to a location's Tool Registry, and their closing. */
export function toolCommands({ runtime }: RuntimeHost): CommandTable {
  return {
    'tool.contribution.register': (c) => {
      const answers = (c.answers ?? {}) as Record<string, { outputSchema: object; structured: unknown }>;
      const tools = (c.tools as string[]).map((name) => contributedTool(name, answers[name]));
      runtime.contributeTools(String(c.location), String(c.contribution), tools);
    },
    'tool.contribution.close': (c) => {
      if (!runtime.closeToolContribution(String(c.location), String(c.contribution)))
        throw new RuntimeError('not-found', `no tool contribution ${c.contribution}`);
    },
  };
}
