import { ContextRegistry } from './context-registry.js';
import type { ContextSource } from './context-source.js';
import { environmentSource } from './sources/environment.js';
import { dateSource } from './sources/date.js';
import { instructionsSource, type BeforeInstructionRead } from './sources/instructions.js';
import { instructionFileSources, nestedInstructionSources } from './sources/instruction-files.js';
import { combine } from './context-source.js';
import type { ContextDesign } from './context-design.js';
import { skillGuidanceSource } from './sources/skills.js';
import type { Clock } from '../clock.js';
import type { Agent, AgentCatalog } from '../agents/agent-catalog.js';

export interface HostContext {
  design: ContextDesign;
  clock: Clock;
  /** The host's environment variables, read when a source is observed. */
  hostEnv: () => Record<string, string | undefined>;
  /** The user's global configuration directory (global AGENTS.md). */
  globalConfigDir: string;
  agents: AgentCatalog;
  /** The host's hook just before each read of an instruction file (a fault the kit arms). */
  beforeInstructionRead?: BeforeInstructionRead;
}

/** One System Context Registry per location, created with the built-in contributions. */
export class LocationContexts {
  private readonly registries = new Map<string, ContextRegistry>();

  constructor(private readonly host: HostContext) {}

  registry(location: string, projectRoot: string): ContextRegistry {
    const id = `${projectRoot}\0${location}`;
    let registry = this.registries.get(id);
    if (!registry) {
      registry = this.builtIns(location, projectRoot);
      this.registries.set(id, registry);
    }
    return registry;
  }

  /**
   * The location's sources, then (in the checkpoint design) the nested instruction files the
   * session discovered, then the selected agent's skill guidance, composed just before admission.
   */
  async sources(location: string, projectRoot: string, agent: Agent, nested: string[]): Promise<ContextSource[]> {
    const sources = await this.registry(location, projectRoot).compose(this.host.design);
    const discovered = this.host.design.discoversNestedInstructions()
      ? await nestedInstructionSources(nested, projectRoot)
      : [];
    return combine([...sources, ...discovered, skillGuidanceSource(() => this.host.agents.permittedSkills(agent))]);
  }

  private builtIns(location: string, projectRoot: string): ContextRegistry {
    const { clock, hostEnv, globalConfigDir } = this.host;
    const registry = new ContextRegistry();
    registry.register('core/builtins', () => [
      environmentSource(location, projectRoot),
      dateSource(clock, () => hostEnv().TZ || 'UTC'),
    ]);
    const scope = {
      globalDir: globalConfigDir,
      location,
      projectRoot,
      projectConfigDisabled: () => Boolean(hostEnv().OPENCODE_DISABLE_PROJECT_CONFIG),
      beforeRead: this.host.beforeInstructionRead,
    };
    registry.register('core/instructions', () =>
      this.host.design.separatesInstructionFiles() ? instructionFileSources(scope) : [instructionsSource(scope)],
    );
    return registry;
  }
}
