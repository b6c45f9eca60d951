/**
 * Qwen Code's user settings (`$QWEN_HOME/settings.json`) for a judged run: offline and hermetic
 * (no usage statistics, telemetry, update check or IDE link), none of its background model
 * requests (memory extraction and consolidation, skill review, next-speaker checks, loop
 * detection, follow-up suggestions), every tool listed to the model rather than behind its tool
 * search, and the kit's budgets where it configured them.
 */
export function qwenSettings({ compaction, toolOutput } = {}) {
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
      // A failed provider request is retried after real sleeps; no scenario may wait on them.
      generationConfig: {
        maxRetries: 0,
        ...(compaction ? { contextWindowSize: compaction.contextWindow } : {}),
      },
    },
    // Qwen Code compacts before a request whose estimated prompt exceeds this share of the window
    // (and, whatever the share, the window less the 20000 tokens its summary may take and 13000 more).
    ...(compaction
      ? {
          context: {
            autoCompactThreshold:
              (compaction.contextWindow - Math.max(compaction.outputAllowance, compaction.buffer)) /
              compaction.contextWindow,
          },
        }
      : {}),
    tools: {
      toolSearch: { enabled: false },
      ...(toolOutput
        ? { truncateToolOutputThreshold: toolOutput.maxBytes, truncateToolOutputLines: toolOutput.maxLines }
        : {}),
    },
  };
}
