import { RuntimeError } from '../../errors.js';
import type { ToolPermission } from '../../agents/agent-catalog.js';
import type { CommandTable } from '../command.js';
import type { RuntimeHost } from '../runtime-host.js';

/** Agents, skills, and the permission requests their policies raise. */
export function agentCommands({ runtime }: RuntimeHost): CommandTable {
  return {
    'agent.define': (c) =>
      runtime.agents.defineAgent({
        name: String(c.name),
        tools: (c.tools ?? {}) as Record<string, ToolPermission>,
        skills: (c.skills ?? {}) as Record<string, 'allow' | 'deny'>,
      }),
    'skill.define': (c) =>
      runtime.agents.defineSkill({
        name: String(c.name),
        description: String(c.description),
        body: String(c.body),
        ...(c.location === undefined ? {} : { location: String(c.location) }),
      }),
    'permission.wait': (c) => runtime.permissions.whenPending(String(c.sessionId)),
    'permission.pending': (c) => ({
      requests: runtime.permissions.pending(String(c.sessionId)).map(({ id, tool, agent }) => ({ id, tool, agent })),
    }),
    'permission.reply': (c) => {
      if (!runtime.replyToPermission(String(c.id), Boolean(c.approve), c.always === true)) {
        throw new RuntimeError('not-found', `no pending permission request ${c.id}`);
      }
    },
  };
}
