import type { AgentCatalog } from '../agents/agent-catalog.js';
import type { Tool } from './tool.js';

/**
 * The only way a skill's body and location reach the model: loading checks the calling agent's
 * skill permissions, and a skill it may not use fails without revealing anything of it.
 */
export function skillTool(agents: AgentCatalog): Tool {
  return {
    name: 'skill',
    description: 'Load a skill by name: its instructions and where its files are.',
    parameters: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] },
    async execute(input, { agent }) {
      const skill = agents.permittedSkills(agent).find((permitted) => permitted.name === input.name);
      if (!skill) throw new Error(`No skill named ${String(input.name)} is available to agent ${agent.name}`);
      return [`Skill ${skill.name}${skill.location ? ` (files in ${skill.location})` : ''}:`, skill.body].join('\n');
    },
  };
}
