import { PROJECT_ROOT_MARKER } from '../../harness/adapter/project-root.mjs';

/**
 * Gemini CLI's user settings (`$GEMINI_CLI_HOME/.gemini/settings.json`) for a run under the kit:
 * offline and hermetic (no telemetry, statistics, update checks, IDE, checkpointing or
 * background model requests), `AGENTS.md` as the instruction file, the shell allowed (the kit's
 * default agent's one rule), and the budgets the kit configured.
 */
/** Gemini CLI's window for a model it does not know, as the kit's is (`DEFAULT_TOKEN_LIMIT`, `tokenLimit`). */
export const GEMINI_WINDOW = 1_048_576;

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
    // Instruction discovery stops at the kit's project root, marked with the kit's file
    // (getEnvironmentMemoryPaths: a boundary marker found above the location is the ceiling).
    context: { fileName: ['AGENTS.md'], memoryBoundaryMarkers: [PROJECT_ROOT_MARKER] },
    tools: { allowed: ['run_shell_command'] },
    security: { folderTrust: { enabled: false }, auth: { selectedType: 'gateway' } },
    experimental: { autoMemory: false },
  };
  const window = kit.compaction?.contextWindow;
  if (window) {
    // Gemini CLI compresses once the last prompt's tokens reach the threshold's share of its own
    // window for the model (`tryCompressChat`: threshold * tokenLimit(model)), which no setting
    // changes: the share is taken of that window, so that it compresses where the kit's budget does.
    const reserve = Math.max(kit.compaction.outputAllowance ?? 0, kit.compaction.buffer ?? 0);
    settings.model.compressionThreshold = Math.min(1, Math.max(1e-6, (window - reserve) / GEMINI_WINDOW));
  }
  const limit = kit.toolOutput;
  if (limit?.maxChars ?? limit?.maxBytes) settings.tools.truncateToolOutputThreshold = limit.maxChars ?? limit.maxBytes;
  return settings;
}
