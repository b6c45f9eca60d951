import type { SessionMessage } from '../history/message.js';
import type { CompactionBudget } from './compaction-budget.js';

/** Profile `sol` keeps at most this much of the context window free for the answer. */
export const OUTPUT_TOKEN_MAX = 32_000;

/**
 * The tokens the session uses: the usage of the newest response since the latest compaction. Each
 * response's input already counts the whole conversation, so the newest replaces, never adds.
 */
export function usedTokens(messages: SessionMessage[]): number {
  const since = messages.slice(messages.findLastIndex((m) => m.role === 'compaction') + 1);
  const usage = since.findLast((m) => m.role === 'assistant' && m.usage !== undefined);
  if (usage?.role !== 'assistant' || !usage.usage) return 0;
  return usage.usage.input + usage.usage.cacheRead + usage.usage.output;
}

/** Profile `sol`'s overflow: the used tokens exceed the window minus the output reserve. */
export function usageOverflows(messages: SessionMessage[], budget: CompactionBudget): boolean {
  return usedTokens(messages) > budget.contextWindow - Math.min(budget.outputAllowance, OUTPUT_TOKEN_MAX);
}
