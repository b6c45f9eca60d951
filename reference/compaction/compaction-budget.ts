import type { PrunedMessage } from '../history/message.js';
import type { ProviderRequest } from '../provider/provider-request.js';

/** The context window of the selected model and the headroom kept free for its answer. */
export interface CompactionBudget {
  contextWindow: number;
  /** The output the request allows the model (capped, as providers cap it). */
  outputAllowance: number;
  /** `compaction.buffer`: headroom kept whatever the output allowance. */
  buffer: number;
  /** The context windows of models other than the default, by name. */
  modelWindows?: Record<string, number>;
  /** Profile sol (`CompactionConfig.Auto`, `.Prune`): on unless turned off. */
  auto?: boolean;
  prune?: boolean;
  /** Profile sol: the compaction agent's model (`CompactionAgent.Model`); the session's when absent. */
  model?: string;
  /** Profile sol (`CompactionConfig.PrunedMessage`): the replacement text of pruned content; the default's when absent. */
  prunedMessage?: PrunedMessage;
}

/** The budget of the selected model: its own context window where it has one. */
export function budgetFor(budget: CompactionBudget, model: string): CompactionBudget {
  return { ...budget, contextWindow: budget.modelWindows?.[model] ?? budget.contextWindow };
}

export const DEFAULT_BUDGET: CompactionBudget = { contextWindow: 200_000, outputAllowance: 32_000, buffer: 20_000 };

/** Characters / 4: coarse, provider-independent, and cheap enough for every provider turn. */
export function estimateTokens(text: string): number {
  return Math.round(text.length / 4);
}

/** The whole request counts: baseline, every message and every tool definition. */
export function overBudget(request: ProviderRequest, budget: CompactionBudget): boolean {
  const reserve = Math.max(budget.outputAllowance, budget.buffer);
  return estimateTokens(JSON.stringify(request)) > budget.contextWindow - reserve;
}
