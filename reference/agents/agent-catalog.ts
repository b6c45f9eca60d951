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

/**
 * The rules the runtime's own agents start with; a definition of the same agent adds its rules
 * over them. The default agent may run the shell without asking.
 */
const BUILT_IN_RULES: Record<string, Record<string, ToolPermission>> = { [DEFAULT_AGENT]: { bash: 'allow' } };

/**
 * Agents and skills known to the runtime. A tool the agent has no rule for gets the tool's own
 * default (allowed unless the tool says otherwise); unlisted skills are allowed.
 */
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
    const agent = this.agents.get(resolved) ?? { name: resolved, tools: {}, skills: {} };
    return { ...agent, tools: { ...BUILT_IN_RULES[resolved], ...agent.tools } };
  }

  toolPermission(agent: Agent, tool: string, unruled: ToolPermission = 'allow'): ToolPermission {
    return this.permissionRule(agent, tool) ?? unruled;
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
