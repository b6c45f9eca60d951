/** The agent a session that selected none runs as: the kit's default. */
export const DEFAULT_AGENT = 'build';

/**
 * Qwen Code's user settings (`$QWEN_HOME/settings.json`) for a judged run: offline and hermetic
 * (no usage statistics, telemetry, update check or IDE link), none of its background model
 * requests (memory extraction and consolidation, skill review, next-speaker checks, loop
 * detection, follow-up suggestions), every tool listed to the model rather than behind its tool
 * search, and the kit's budgets where it configured them.
 */
export function qwenSettings(stored, provider, agent = DEFAULT_AGENT) {
  const { compaction, toolOutput, models = [] } = stored;
  const rules = permissionRules(agent, stored.agents?.[agent]);
  const generationConfig = (window) => ({
    // A failed provider request is retried after real sleeps; no scenario may wait on them.
    maxRetries: 0,
    ...(window ? { contextWindowSize: window } : {}),
  });
  return {
    general: { enableAutoUpdate: false, showSessionRecap: false },
    privacy: { usageStatisticsEnabled: false },
    telemetry: { enabled: false },
    ide: { enabled: false },
    ui: { enableFollowupSuggestions: false, enableWelcomeBack: false, hideTips: true },
    memory: { enableManagedAutoMemory: false, enableManagedAutoDream: false, enableAutoSkill: false },
    model: {
      skipNextSpeakerCheck: true,
      skipLoopDetection: true,
      generationConfig: generationConfig(compaction?.contextWindow),
    },
    // A window per model: an entry of modelProviders carries its own generationConfig, which Qwen
    // Code applies whole (in place of model.generationConfig) when the model is started or selected.
    // Qwen Code's ACP selects only a model it has an entry for (Config.switchModel through its
    // ModelRegistry): every model the kit selected gets one too.
    ...((compaction?.modelWindows || models.length > 0) && provider
      ? { modelProviders: modelEntries(compaction ?? {}, models, provider, generationConfig) }
      : {}),
    // Qwen Code compacts before a request whose estimated prompt exceeds this share of the window
    // (and, whatever the share, the window less the 20000 tokens its summary may take and 13000 more).
    // The share is one setting for every model: a named model's budget is its window times it, so
    // the share is the smallest any model's budget asks for, and no model runs past its own.
    ...(compaction ? { context: { autoCompactThreshold: smallestShare(compaction) } } : {}),
    // The session's agent (permissionRules); a skill it may not use is also one of Qwen Code's
    // disabled skills, which it leaves out of <available_skills> and refuses to load.
    permissions: rules,
    skills: { disabled: deniedSkills(stored.agents?.[agent]) },
    tools: {
      toolSearch: { enabled: false },
      ...(toolOutput
        ? { truncateToolOutputThreshold: toolOutput.maxBytes, truncateToolOutputLines: toolOutput.maxLines }
        : {}),
    },
  };
}

/**
 * The `modelProviders` entries of the kit's models under the provider's protocol: the default model
 * and every model selected with the configured window, every model `modelWindows` names with its own; each at the kit's
 * endpoint and key (an entry without `baseUrl` would take Qwen Code's default endpoint).
 */
function modelEntries({ contextWindow, modelWindows }, models, provider, generationConfig) {
  const windows = {
    [provider.model]: contextWindow,
    ...Object.fromEntries(models.map((model) => [model, contextWindow])),
    ...modelWindows,
  };
  return {
    [provider.authType]: Object.entries(windows).map(([id, window]) => ({
      id,
      baseUrl: provider.baseUrl,
      envKey: provider.envKey,
      generationConfig: generationConfig(window),
    })),
  };
}

/** The smallest share of its window that the kit's budget leaves a model: its window less the reserve. */
function smallestShare({ contextWindow, outputAllowance, buffer, modelWindows = {} }) {
  const reserve = Math.max(outputAllowance, buffer);
  const shares = [contextWindow, ...Object.values(modelWindows)].map((window) => (window - reserve) / window);
  return Math.max(0.01, Math.min(...shares));
}

/**
 * The rules of kit agent `name` (`{tools, skills}` as the kit defined them) as Qwen Code's
 * permission rules (`permissions.allow`, `ask`, `deny`, whose deny wins over ask and ask over
 * allow): each tool by its own name, each skill as `Skill(<name>)` (a rule's specifier is the skill
 * tool's `skill` argument, buildPermissionCheckContext). The skill tool runs without asking unless
 * the agent rules otherwise (unlisted skills are allowed). The default agent, build, runs the shell
 * without asking unless it rules otherwise: that built-in rule is the adapter's, as the kit's tools
 * are shell commands; any other agent without a rule for the shell gets Qwen Code's own default (it
 * asks before a command that is not read-only), as does every other tool (it asks before an edit
 * or a write), asked of the ACP client as session/request_permission.
 */
export function permissionRules(name, { tools = {}, skills = {} } = {}) {
  const rules = { allow: [], ask: [], deny: [] };
  const builtIn = name === DEFAULT_AGENT ? { run_shell_command: 'allow', skill: 'allow' } : { skill: 'allow' };
  for (const [tool, rule] of Object.entries({ ...builtIn, ...tools })) rules[rule].push(tool);
  for (const [skill, rule] of Object.entries(skills)) rules[rule].push(`Skill(${skill})`);
  return rules;
}

/** The skills a kit agent may not use. */
function deniedSkills({ skills = {} } = {}) {
  return Object.keys(skills).filter((skill) => skills[skill] === 'deny');
}
