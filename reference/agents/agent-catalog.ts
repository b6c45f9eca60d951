/** What an agent may do with a tool: run it, refuse it, or ask the user first. */
export type ToolPermission = 'allow' | 'deny' | 'ask';

export interface Agent {
  name: string;
  tools: Record<string, ToolPermission>;
  skills: Record<string, 'allow' | 'deny'>;
}

export interface Skill {
  name: string;
  description: string;
  body: string;
  /** Where its files are. */
  location?: string;
}

/** The agent a session without a selected agent runs as, for execution and permissions alike. */
export const DEFAULT_AGENT = 'build';

/** Agents and skills known to the runtime. Unlisted tools and skills are allowed. */
export class AgentCatalog {
  private readonly agents = new Map<string, Agent>();
  private readonly skills = new Map<string, Skill>();

  defineAgent(agent: Agent): void {
    this.agents.set(agent.name, agent);
  }

  defineSkill(skill: Skill): void {
    this.skills.set(skill.name, skill);
  }

  agent(name: string | null): Agent {
    const resolved = name ?? DEFAULT_AGENT;
    return this.agents.get(resolved) ?? { name: resolved, tools: {}, skills: {} };
  }

  toolPermission(agent: Agent, tool: string): ToolPermission {
    return this.permissionRule(agent, tool) ?? 'allow';
  }

  /** The agent's own rule for a tool or an authority, if it has one. */
  permissionRule(agent: Agent, permission: string): ToolPermission | undefined {
    return agent.tools[permission];
  }

  /** The skills this agent may load, by name. */
  permittedSkills(agent: Agent): Skill[] {
    return [...this.skills.values()]
      .filter((skill) => (agent.skills[skill.name] ?? 'allow') === 'allow')
      .sort((a, b) => a.name.localeCompare(b.name));
  }
}
