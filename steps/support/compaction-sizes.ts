import type { RuntimeDescription } from '../../harness/protocol/protocol.js';

/**
 * A conversation one compaction can fold, sized from the limits the runtime declared (tokens are
 * characters / 4, as every runtime estimates plain prose roughly):
 * - the long reply is older than anything the runtime keeps verbatim, so a compaction must fold it;
 * - the budget (window less reserve) holds the recent context, a summary and the runtime's own
 *   baseline and tools, but not the long reply, so the turn after it is over budget;
 * - the window holds the long reply plus the summary's output, so the summary request fits;
 * - the window is at least the least one the runtime accepts: a longer reply fills a larger one.
 */
export interface CompactionSizes {
  contextWindow: number;
  outputAllowance: number;
  buffer: number;
  /** Characters of the long reply. */
  longReply: number;
}

/** The output allowance the scenarios configure: below every summary cap a runtime declares. */
const OUTPUT_ALLOWANCE = 4_000;
/** The long reply is never shorter than this, whatever the runtime keeps verbatim. */
const LEAST_LONG_REPLY_TOKENS = 10_000;
const CHARS_PER_TOKEN = 4;

export function compactionSizes(description: RuntimeDescription): CompactionSizes {
  const limits = description.limits ?? {};
  const recent = limits.recentContextTokens ?? 0;
  const summaryOutput = limits.summaryOutputTokens ?? OUTPUT_ALLOWANCE;
  const least = limits.leastContextWindow ?? 0;
  const reply = Math.max(LEAST_LONG_REPLY_TOKENS, 4 * recent, Math.ceil((least - summaryOutput) / 2));
  const contextWindow = 2 * reply + summaryOutput;
  // Over budget with the long reply, within it with the recent context and half a long reply to spare.
  const budget = reply / 2 + recent;
  return {
    contextWindow,
    outputAllowance: OUTPUT_ALLOWANCE,
    buffer: contextWindow - budget,
    longReply: reply * CHARS_PER_TOKEN,
  };
}

/**
 * The budget a runtime starts with for `model`, from its declared limits; undefined when it
 * declared no context window.
 */
export function declaredBudget(description: RuntimeDescription, model: string): number | undefined {
  const limits = description.limits ?? {};
  const own = limits.models?.[model] ?? {};
  const window = own.contextWindow ?? limits.contextWindow;
  if (window === undefined) return undefined;
  const allowance = own.outputAllowance ?? limits.outputAllowance ?? 0;
  const capped = Math.min(allowance, limits.outputAllowanceCap ?? allowance);
  return window - Math.max(capped, limits.compactionBuffer ?? 0);
}
