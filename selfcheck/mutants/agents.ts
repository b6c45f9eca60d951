import type { Mutant } from './mutant.js';

export const agents: Mutant[] = [
  {
    name: 'the model selection is ignored until the runtime restarts',
    file: 'runner/provider-turn.ts',
    find: '    model: session.model ?? deps.provider.model,',
    replace: '    model: deps.provider.model,',
    clauses: ['AGT-01 (c)', 'EPO-08 (c)'],
  },
  {
    name: 'skill guidance shows skill bodies',
    file: 'context/sources/skills.ts',
    find: 'const skills = permitted().map(({ name, description }) => ({ name, description }));',
    replace:
      'const skills = permitted().map(({ name, description, body }) => ({ name, description: `${description} ${body}` }));',
    clauses: ['AGT-03 (c)'],
  },
  {
    name: 'skill guidance shows where each skill is kept',
    file: 'context/sources/skills.ts',
    find: 'const skills = permitted().map(({ name, description }) => ({ name, description }));',
    replace:
      'const skills = permitted().map(({ name, description, location }) => ({ name, description: `${description} (${location ?? name}/SKILL.md)` }));',
    clauses: ['AGT-03 (d)', 'AGT-07 (b)'],
  },
  {
    name: 'an answered permission request is re-checked under the current agent',
    file: 'runner/tool-authorization.ts',
    find: "      if (!approved) return { status: 'error', output: 'The user declined this tool call' };",
    replace: `      if (!approved) return { status: 'error', output: 'The user declined this tool call' };
      const sessions = (this.deps as unknown as { sessions: { get(id: string): { agent: string | null } } }).sessions;
      if (agents.toolPermission(agents.agent(sessions.get(this.sessionId).agent), call.name) === 'deny') {
        return { status: 'error', output: 'denied' };
      }`,
    clauses: ['AGT-04 (a)'],
  },
  {
    name: 'a session without an agent gets an empty policy',
    file: 'agents/agent-catalog.ts',
    find: 'const resolved = name ?? DEFAULT_AGENT;',
    replace: "const resolved = name ?? '';",
    clauses: ['AGT-05 (a)'],
  },
  {
    name: "a session without an agent keeps the build agent's definition but not its built-in rules",
    kind: 'configuration precedence',
    file: 'agents/agent-catalog.ts',
    find: 'return { ...agent, tools: { ...BUILT_IN_RULES[resolved], ...agent.tools } };',
    replace: 'return { ...agent, tools: { ...(name === null ? {} : BUILT_IN_RULES[resolved]), ...agent.tools } };',
    clauses: ['AGT-05 (a)'],
  },
  // AGT-05 (b): a session without an agent runs as the build agent, its skill guidance included.
  {
    name: 'the skill guidance of a session without an agent is built for no agent',
    file: 'runtime.ts',
    find: '      this.agents.agent(session.agent),\n      this.nested.paths(session.id),',
    replace:
      "      session.agent === null ? { name: '', tools: {}, skills: {} } : this.agents.agent(session.agent),\n      this.nested.paths(session.id),",
    clauses: ['AGT-05 (b)'],
  },
  {
    name: 'a session without an agent runs as the first agent defined',
    kind: 'configuration precedence',
    file: 'agents/agent-catalog.ts',
    find: 'const resolved = name ?? DEFAULT_AGENT;',
    replace: 'const resolved = name ?? [...this.agents.keys()][0] ?? DEFAULT_AGENT;',
    clauses: ['AGT-05 (b)'],
  },
  {
    name: 'reasoning is replayed with its signature to any model',
    file: 'provider/anthropic-messages.ts',
    find: 'const signature = message.model === model ? reasoning?.signature : undefined;',
    replace: 'const signature = reasoning?.signature;',
    clauses: ['AGT-06 (b)'],
  },
  {
    name: 'the skill tool loads skills the agent may not use',
    file: 'tools/skill-tool.ts',
    find: 'const skill = agents.permittedSkills(agent).find(',
    replace: 'const skill = agents.permittedSkills({ ...agent, skills: {} }).find(',
    clauses: ['AGT-07 (c)'],
  },
  {
    name: 'a refused skill load says where the skill lives',
    file: 'tools/skill-tool.ts',
    find: '      if (!skill) throw new Error(`No skill named ${String(input.name)} is available to agent ${agent.name}`);',
    replace:
      '      const hidden = agents.permittedSkills({ ...agent, skills: {} }).find((s) => s.name === input.name);\n      if (!skill) throw new Error(`Agent ${agent.name} may not load the skill in ${hidden?.location}`);',
    clauses: ['AGT-07 (d)'],
  },
  {
    name: 'the model is sampled once per drain, not per turn',
    file: 'runner/drain.ts',
    find: '    const session = deps.sessions.get(sessionId);\n',
    replace: '    const session = { ...deps.sessions.get(sessionId), model: drainModel };\n',
    also: [
      {
        file: 'runner/drain.ts',
        find: '  const { location } = deps.sessions.get(sessionId);',
        replace: '  const { location, model: drainModel } = deps.sessions.get(sessionId);',
      },
    ],
    clauses: ['AGT-01 (b)'],
  },
  {
    name: 'the context is composed for the default agent, whichever is selected',
    file: 'runtime.ts',
    find: '      this.agents.agent(session.agent),\n      this.nested.paths(session.id),',
    replace: '      this.agents.agent(null),\n      this.nested.paths(session.id),',
    clauses: ['AGT-02 (a)'],
  },
  {
    name: 'an agent switch tells only the skills it adds',
    file: 'context/sources/skills.ts',
    find: '    update: (_previous, skills) => `The skills you can load with the skill tool are now:\\n${render(skills)}`,',
    replace:
      '    update: (previous, skills) =>\n      `The skills you can load with the skill tool are now:\\n${render(skills.filter((s) => !previous.some((p) => p.name === s.name)))}`,',
    clauses: ['AGT-02 (a)'],
  },
  {
    name: 'an agent switch renders its skill guidance into a fresh baseline',
    file: 'runner/context-boundary.ts',
    find: "    if (result.kind === 'updated') {\n      const messageId = this.deps.ids.next('msg');",
    replace:
      "    if (result.kind === 'updated' && result.keys.includes('core/skills')) {\n      const fresh = await replace(this.deps.profile, this.sources, epoch.snapshot);\n      if (fresh.kind === 'replacement-ready') this.deps.log.append(this.session.id, [{ type: 'context.replaced', parts: systemParts(this.deps.profile, fresh.baseline), snapshot: fresh.baseline.snapshot, provider: providerOf(this.deps.provider) }]);\n    } else if (result.kind === 'updated') {\n      const messageId = this.deps.ids.next('msg');",
    clauses: ['AGT-02 (b)'],
  },
  {
    name: "skill guidance ignores the agent's skill rules",
    file: 'context/location-contexts.ts',
    find: 'skillGuidanceSource(() => this.host.agents.permittedSkills(agent))',
    replace: 'skillGuidanceSource(() => this.host.agents.permittedSkills({ ...agent, skills: {} }))',
    clauses: ['AGT-03 (b)'],
  },
  {
    name: 'skill guidance follows the agent a session runs as without a selection, not the one it selected',
    kind: 'identity in the wrong scope',
    file: 'context/location-contexts.ts',
    find: 'skillGuidanceSource(() => this.host.agents.permittedSkills(agent))',
    replace: 'skillGuidanceSource(() => this.host.agents.permittedSkills(this.host.agents.agent(null)))',
    clauses: ['AGT-03 (a)', 'AGT-03 (b)'],
  },
  {
    name: 'an agent switch declines the permission requests still waiting',
    file: 'runtime.ts',
    find: '    this.sessions.select(sessionId, selection, this.profile.endsEpochOnSwitch() && selection.model !== undefined);',
    replace:
      '    this.sessions.select(sessionId, selection, this.profile.endsEpochOnSwitch() && selection.model !== undefined);\n    if (selection.agent !== undefined) for (const request of this.permissions.pending(sessionId)) this.permissions.reply(request.id, false);',
    clauses: ['AGT-04 (a)'],
  },
  {
    name: "a session without an agent gets the default agent's built-in rules but not its definition",
    kind: 'configuration precedence',
    file: 'agents/agent-catalog.ts',
    find: '    const agent = this.agents.get(resolved) ?? { name: resolved, tools: {}, skills: {} };',
    replace:
      '    const agent = (name === null ? undefined : this.agents.get(resolved)) ?? { name: resolved, tools: {}, skills: {} };',
    clauses: ['AGT-05 (a)'],
  },
  {
    name: 'reasoning goes back to a model whose name differs in its last part only',
    kind: 'partial comparison',
    file: 'provider/anthropic-messages.ts',
    find: 'const signature = message.model === model ? reasoning?.signature : undefined;',
    replace:
      "const family = (name?: string) => name?.split('-').slice(0, -1).join('-');\n  const signature = family(message.model) === family(model) ? reasoning?.signature : undefined;",
    clauses: ['AGT-06 (a)'],
  },
  {
    name: 'reasoning of another model is dropped instead of replayed as text',
    file: 'provider/anthropic-messages.ts',
    find: "    ...(reasoning?.text && signature === undefined ? [{ type: 'text' as const, text: reasoning.text }] : []),",
    replace: '',
    clauses: ['AGT-06 (c)'],
  },
  {
    // The server remembers the selection in its own memory; the session record never learns it.
    name: 'the selected agent and model live in process memory, so a restart forgets them',
    kind: 'state held only in memory',
    file: 'session/session-store.ts',
    find: '  private readonly insert;',
    replace:
      '  private readonly insert;\n  private readonly selections = new Map<string, { agent?: string | null; model?: string | null }>();',
    also: [
      {
        file: 'session/session-store.ts',
        find: '        compactionRequested: row.compaction_requested === 1,\n      }',
        replace:
          '        compactionRequested: row.compaction_requested === 1,\n        ...this.selections.get(row.id),\n      }',
      },
      {
        file: 'session/session-store.ts',
        find: "    this.get(id);\n    this.log.append(id, [\n      { type: 'session.selected', ...selection },",
        replace:
          "    this.get(id);\n    this.selections.set(id, { ...this.selections.get(id), ...selection });\n    this.log.append(id, [\n      { type: 'session.selected' },",
      },
    ],
    clauses: ['AGT-01 (a)'],
  },
  {
    // A session read once is served from memory: a selection made since is not seen.
    name: 'sessions are cached when first read, so a later selection is not seen',
    kind: 'stale cache',
    file: 'session/session-store.ts',
    find: '  find(id: string): Session | undefined {\n    const row = this.byId.get(id);',
    replace:
      '  private readonly cache = new Map<string, Row | undefined>();\n  find(id: string): Session | undefined {\n    if (!this.cache.get(id)) this.cache.set(id, this.byId.get(id));\n    const row = this.cache.get(id);',
    clauses: ['AGT-01 (c)'],
  },
  // AGT-01 (e): an agent selected while a turn runs is the agent of the drain's next provider turn.
  {
    name: 'the agent is sampled once per drain, not per turn',
    kind: 'stale cache',
    file: 'runner/drain.ts',
    find: '    const session = deps.sessions.get(sessionId);\n',
    replace: '    const session = { ...deps.sessions.get(sessionId), agent: drainAgent };\n',
    also: [
      {
        file: 'runner/drain.ts',
        find: '  const { location } = deps.sessions.get(sessionId);',
        replace: '  const { location, agent: drainAgent } = deps.sessions.get(sessionId);',
      },
    ],
    clauses: ['AGT-01 (e)'],
  },
  {
    // As where the agent is kept with the user's message: a switch waits for the next prompt.
    name: 'the agent of a turn is the one selected when the input it answers was promoted',
    kind: 'ordering in time',
    file: 'runner/drain.ts',
    find: '    if (promoted > 0) turns = 0;',
    replace:
      '    if (promoted > 0) turns = 0;\n    if (promoted > 0 || promptAgent === undefined) promptAgent = session.agent;',
    also: [
      {
        file: 'runner/drain.ts',
        find: 'const outcome = await runProviderTurn(deps, session, epoch.parts, signal, doomLoop);',
        replace:
          'const outcome = await runProviderTurn(deps, { ...session, agent: promptAgent }, epoch.parts, signal, doomLoop);',
      },
      {
        file: 'runner/drain.ts',
        find: '  let turns = 0;\n',
        replace: '  let turns = 0;\n  let promptAgent: string | null | undefined;\n',
      },
    ],
    clauses: ['AGT-01 (d)', 'AGT-01 (e)'],
  },
  {
    name: "a turn keeps the model of the conversation's last answer",
    kind: 'stale cache',
    file: 'runner/provider-turn.ts',
    find: '    model: session.model ?? deps.provider.model,\n    baseline,',
    replace:
      "    model: deps.history.messages(session.id).findLast((m) => m.role === 'assistant' && m.status === 'completed' && m.model !== '')?.model ?? session.model ?? deps.provider.model,\n    baseline,",
    clauses: ['AGT-01 (a)'],
  },
  {
    name: 'a selection made while the session runs is applied once it is idle',
    kind: 'ordering in time',
    file: 'runtime.ts',
    find: '    this.sessions.select(sessionId, selection, this.profile.endsEpochOnSwitch() && selection.model !== undefined);',
    replace:
      '    const apply = () => this.sessions.select(sessionId, selection, this.profile.endsEpochOnSwitch() && selection.model !== undefined);\n    if (this.coordinator.busy(sessionId)) void this.coordinator.idle(sessionId).then(apply, () => {});\n    else apply();',
    clauses: ['AGT-01 (b)'],
  },
  // AGT-04 (b): a call allowed without asking keeps the agent of its turn, however late it is authorized.
  {
    name: 'the calls of a turn run one after another, each authorized under the agent selected when it starts',
    kind: 'ordering in time',
    file: 'runner/provider-turn.ts',
    find: '  const turn = new TurnProjection(deps, sessionId, model, signal, (call) => authorization.authorizedExecution(call));',
    replace:
      '  // The calls of a turn run one after another, each judged when it starts.\n  let queue: Promise<unknown> = Promise.resolve();\n  const selected = () =>\n    deps.agents.agent((deps as unknown as { sessions: { get(id: string): Session } }).sessions.get(sessionId).agent);\n  const turn = new TurnProjection(deps, sessionId, model, signal, (call) => {\n    const next = queue.then(() => new ToolAuthorization(deps, session, selected(), signal, doomLoop).authorizedExecution(call));\n    queue = next.catch(() => undefined);\n    return next;\n  });',
    clauses: ['AGT-04 (b)'],
  },
  {
    name: 'the calls of a turn run one after another, each needing the allowance of the agent selected when it starts as well as its turn agent',
    kind: 'configuration precedence',
    file: 'runner/provider-turn.ts',
    find: '  const turn = new TurnProjection(deps, sessionId, model, signal, (call) => authorization.authorizedExecution(call));',
    replace:
      "  // The calls of a turn run one after another; each must be allowed by the agent selected when it starts too.\n  let queue: Promise<unknown> = Promise.resolve();\n  const selected = () =>\n    deps.agents.agent((deps as unknown as { sessions: { get(id: string): Session } }).sessions.get(sessionId).agent);\n  const turn = new TurnProjection(deps, sessionId, model, signal, (call) => {\n    const next = queue.then(async () => {\n      const now = selected();\n      if (deps.agents.toolPermission(now, call.name, deps.tools.unruled(call.name)) === 'deny')\n        return { status: 'error' as const, output: `Agent ${now.name} may not use ${call.name}` };\n      return authorization.authorizedExecution(call);\n    });\n    queue = next.catch(() => undefined);\n    return next;\n  });",
    clauses: ['AGT-04 (b)'],
  },
  {
    // The session's agent read when the call is authorized, which is once the stream moves past it.
    name: 'a call allowed without asking is judged under the agent selected when it is authorized',
    kind: 'identity in the wrong scope',
    file: 'runner/tool-authorization.ts',
    find: '    const permission = agents.toolPermission(this.agent, call.name, tools.unruled(call.name));',
    replace:
      '    const { sessions } = this.deps as unknown as { sessions: { get(id: string): Session } };\n    const permission = agents.toolPermission(agents.agent(sessions.get(this.sessionId).agent), call.name, tools.unruled(call.name));',
    clauses: ['AGT-04 (b)'],
  },
  // AGT-06 (d): provider metadata of an answer goes back only to the model that wrote it.
  {
    name: "an answer's provider item ID goes back whatever model is selected",
    kind: 'partial comparison',
    file: 'provider/openai-responses.ts',
    find: '  const itemId = message.model === model ? message.itemId : undefined;',
    replace: '  const itemId = message.itemId;',
    clauses: ['AGT-06 (d)'],
  },
  {
    name: 'reasoning goes back signed but without its text',
    file: 'provider/anthropic-messages.ts',
    find: "      ? [{ type: 'thinking' as const, thinking: reasoning.text, signature }]",
    replace: "      ? [{ type: 'thinking' as const, thinking: '', signature }]",
    clauses: ['AGT-06 (a)'],
  },
  {
    name: "another model's reasoning goes back as an unsigned thinking block",
    file: 'provider/anthropic-messages.ts',
    find: "    ...(reasoning?.text && signature === undefined ? [{ type: 'text' as const, text: reasoning.text }] : []),",
    replace:
      "    ...(reasoning?.text && signature === undefined ? [{ type: 'thinking' as const, thinking: reasoning.text, signature: '' }] : []),",
    clauses: ['AGT-06 (b)'],
  },
  {
    name: "another model's signed reasoning is dropped, unsigned reasoning kept as text",
    file: 'provider/anthropic-messages.ts',
    find: "    ...(reasoning?.text && signature === undefined ? [{ type: 'text' as const, text: reasoning.text }] : []),",
    replace:
      "    ...(reasoning?.text && reasoning.signature === undefined ? [{ type: 'text' as const, text: reasoning.text }] : []),",
    clauses: ['AGT-06 (c)'],
  },
  {
    name: "an answer's provider item ID is withheld from another model only when the answer reasoned",
    kind: 'partial comparison',
    file: 'provider/openai-responses.ts',
    find: '  const itemId = message.model === model ? message.itemId : undefined;',
    replace: '  const itemId = message.model === model || !reasoning ? message.itemId : undefined;',
    clauses: ['AGT-06 (d)'],
  },
  {
    name: 'skill guidance names the skills without their descriptions',
    file: 'context/sources/skills.ts',
    find: 'skills.map((s) => `- ${s.name}: ${s.description}`)',
    replace: 'skills.map((s) => `- ${s.name}`)',
    clauses: ['AGT-03 (a)'],
  },
  {
    name: 'skill guidance shows the body of the first skill',
    kind: 'second occurrence',
    file: 'context/sources/skills.ts',
    find: 'const skills = permitted().map(({ name, description }) => ({ name, description }));',
    replace:
      'const skills = permitted().map(({ name, description, body }, i) => ({ name, description: i === 0 ? `${description}\\n${body}` : description }));',
    clauses: ['AGT-03 (c)'],
  },
  {
    name: 'skill guidance names each skill by where it is kept',
    file: 'context/sources/skills.ts',
    find: 'const skills = permitted().map(({ name, description }) => ({ name, description }));',
    replace:
      'const skills = permitted().map(({ name, description, location }) => ({ name: location ? `${name} (${location})` : name, description }));',
    clauses: ['AGT-03 (d)'],
  },
  {
    name: 'the skill tool loads the first skill the agent may use, whatever name is asked',
    file: 'tools/skill-tool.ts',
    find: 'const skill = agents.permittedSkills(agent).find((permitted) => permitted.name === input.name);',
    replace: 'const skill = agents.permittedSkills(agent)[0];',
    clauses: ['AGT-07 (a)'],
  },
  {
    name: 'the skill tool gives the description instead of the body',
    file: 'tools/skill-tool.ts',
    find: "      return [`Skill ${skill.name}${skill.location ? ` (files in ${skill.location})` : ''}:`, skill.body].join('\\n');",
    replace:
      "      return [`Skill ${skill.name}${skill.location ? ` (files in ${skill.location})` : ''}:`, skill.description].join('\\n');",
    clauses: ['AGT-07 (a)'],
  },
  {
    name: 'the skill tool describes itself with every skill body',
    file: 'tools/skill-tool.ts',
    find: "    description: 'Load a skill by name: its instructions and where its files are.',",
    replace:
      "    get description() {\n      return ['Load a skill by name: its instructions and where its files are.', ...agents.permittedSkills(agents.agent(null)).map((s) => `${s.name}: ${s.body}`)].join('\\n');\n    },",
    clauses: ['AGT-07 (b)'],
  },
  {
    name: 'a refused skill load settles as a result saying it is not available',
    file: 'tools/skill-tool.ts',
    find: '      if (!skill) throw new Error(`No skill named ${String(input.name)} is available to agent ${agent.name}`);',
    replace: '      if (!skill) return `No skill named ${String(input.name)} is available to agent ${agent.name}`;',
    clauses: ['AGT-07 (c)'],
  },
  {
    name: "a refused skill load quotes the skill's first line",
    file: 'tools/skill-tool.ts',
    find: '      if (!skill) throw new Error(`No skill named ${String(input.name)} is available to agent ${agent.name}`);',
    replace:
      "      const denied = agents.permittedSkills({ ...agent, skills: {} }).find((s) => s.name === input.name);\n      if (!skill) throw new Error(`Agent ${agent.name} may not load ${String(input.name)} (${denied?.body.split('\\n')[0]})`);",
    clauses: ['AGT-07 (d)'],
  },
];
