/**
 * Gemini CLI's user settings (`$GEMINI_CLI_HOME/.gemini/settings.json`) for a run under the kit:
 * offline and hermetic (no telemetry, statistics, update checks, IDE, checkpointing or
 * background model requests), `AGENTS.md` as the instruction file, the shell allowed (the kit's
 * default agent's one rule), and the budgets the kit configured.
 */
export function geminiSettings(kit = {}) {
  const settings = {
    general: {
      enableAutoUpdate: false,
      enableAutoUpdateNotification: false,
      enableNotifications: false,
      checkpointing: { enabled: false },
      // One attempt per request: Gemini CLI waits between retries on real timers.
      maxAttempts: 1,
      retryFetchErrors: false,
    },
    privacy: { usageStatisticsEnabled: false },
    telemetry: { enabled: false },
    ide: { enabled: false },
    model: { skipNextSpeakerCheck: true, disableLoopDetection: true },
    context: { fileName: ['AGENTS.md'] },
    tools: { allowed: ['run_shell_command'] },
    security: { folderTrust: { enabled: false }, auth: { selectedType: 'gateway' } },
    experimental: { autoMemory: false },
  };
  const window = kit.compaction?.contextWindow;
  if (window) {
    const reserve = Math.max(kit.compaction.outputAllowance ?? 0, kit.compaction.buffer ?? 0);
    settings.model.compressionThreshold = Math.max(0.01, (window - reserve) / window);
  }
  const limit = kit.toolOutput;
  if (limit?.maxChars ?? limit?.maxBytes) settings.tools.truncateToolOutputThreshold = limit.maxChars ?? limit.maxBytes;
  return settings;
}
