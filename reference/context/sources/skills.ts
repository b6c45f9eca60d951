import { Absent, type ContextSource } from '../context-source.js';
import type { Skill } from '../../agents/agent-catalog.js';

type Guidance = { name: string; description: string }[];

/**
 * The selected agent's available-skill guidance: names and descriptions only. Bodies and
 * locations are reached only through the permission-checked skill tool.
 */
export function skillGuidanceSource(permitted: () => Skill[]): ContextSource<Guidance> {
  const render = (skills: Guidance) => skills.map((s) => `- ${s.name}: ${s.description}`).join('\n');
  return {
    key: 'core/skills',
    encode: (skills) => skills.map((s) => ({ name: s.name, description: s.description })),
    decode: (json) => json as unknown as Guidance,
    load: async () => {
      const skills = permitted().map(({ name, description }) => ({ name, description }));
      return skills.length > 0 ? skills : Absent;
    },
    baseline: (skills) => `Skills you can load with the skill tool:\n${render(skills)}`,
    update: (_previous, skills) => `The skills you can load with the skill tool are now:\n${render(skills)}`,
    removal: () => 'No skills are available to you any more.',
  };
}
