/**
 * Qwen Code's user settings (`$QWEN_HOME/settings.json`) for a judged run: offline and hermetic
 * (no usage statistics, telemetry, update check or IDE link), none of its background model
 * requests (memory extraction and consolidation, skill review, next-speaker checks, loop
 * detection, follow-up suggestions), every tool listed to the model rather than behind its tool
 * search, and the kit's budgets where it configured them.
 */
export function qwenSettings({ compaction, toolOutput, models = [] } = {}, provider) {
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
    // The kit's default agent may run the shell and load any skill (unlisted skills are allowed)
    // without asking; every other tool keeps Qwen Code's own default (it asks before an edit or a
    // write), asked of the ACP client as session/request_permission.
    permissions: { allow: ['run_shell_command', 'skill'] },
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
