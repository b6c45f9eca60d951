import type { RuntimeDescription } from '../../harness/protocol/protocol.js';
import type { CapturedRequest } from '../../harness/provider/captured-request.js';

/**
 * A conversation one compaction can fold, sized from the limits the runtime declared (tokens are
 * characters / 4, as every runtime estimates plain prose roughly):
 * - the long reply is older than anything the runtime keeps verbatim, so a compaction must fold it;
 * - the budget (window less reserve) holds the recent context, a summary and the runtime's own
 *   baseline and tools, but not the long reply, so the turn after it is over budget;
 * - the window holds the long reply plus the summary's output, so the summary request fits;
 * - the window is at least the least one the runtime accepts: a longer reply fills a larger one;
 * - budget and window carry the runtime's own weight (its instructions and tool definitions, as it
 *   declared them in `requestOverheadTokens`) on top, which the kit checks against its first request.
 */
export interface CompactionSizes {
  contextWindow: number;
  outputAllowance: number;
  buffer: number;
  /** Characters of the long reply. */
  longReply: number;
  /** The runtime's own weight the sizes carry, in tokens, and how much more it may weigh before they are wrong. */
  overhead: { tokens: number; slack: number };
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
  const own = limits.requestOverheadTokens ?? 0;
  // A runtime that leaves its own weight out of its estimate (CMP-01's clause) still finds the long
  // reply over budget: the reply alone outweighs the budget, so other rules are judged apart from it.
  const reply = Math.max(
    LEAST_LONG_REPLY_TOKENS,
    4 * recent,
    Math.ceil((least - own - summaryOutput) / 2),
    // Over the budget by a tenth of it where the reply is all that is counted.
    Math.ceil(2.5 * (own + recent)),
  );
  const contextWindow = own + 2 * reply + summaryOutput;
  // Over budget with the long reply, within it with the recent context and half a long reply to spare.
  const budget = own + reply / 2 + recent;
  return {
    contextWindow,
    outputAllowance: OUTPUT_ALLOWANCE,
    buffer: contextWindow - budget,
    longReply: reply * CHARS_PER_TOKEN,
    // Half the spare half reply: what a summary and the pending turn need of it stays free.
    overhead: { tokens: own, slack: reply / 4 },
  };
}

/**
 * What a request weighs beyond its conversation, in tokens of four characters: its instructions,
 * tool definitions and framing as sent.
 */
export function requestOverhead(request: CapturedRequest): number {
  const conversation = request.messages
    .filter((message) => message.role !== 'system')
    .reduce((sum, message) => sum + message.text.length, 0);
  return Math.round((JSON.stringify(request.body).length - conversation) / CHARS_PER_TOKEN);
}

/**
 * Why a scenario's sizes did not fit the runtime: its first request weighed more of its own than
 * they carry. Undefined when they fit, or when no request went out.
 */
export function sizesMisfit(sizes: CompactionSizes, first: CapturedRequest | undefined): string | undefined {
  if (!first) return undefined;
  const weighs = requestOverhead(first);
  if (weighs <= sizes.overhead.tokens + sizes.overhead.slack) return undefined;
  return `the conversation was sized for a runtime whose requests weigh ${sizes.overhead.tokens} tokens of their own (limits.requestOverheadTokens), but request 1 weighs ${weighs} beyond its conversation`;
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
