/**
 * Continue's configuration for a kit runtime (`--config <file>`): one chat model, the kit's
 * provider in the hello's dialect, and the budget `compaction.configure` set. Written as JSON,
 * which Continue's YAML loader reads as it reads YAML.
 */
const PROVIDERS = { 'openai-chat': 'openai', 'anthropic-messages': 'anthropic' };

export const dialectSupported = (dialect) => dialect in PROVIDERS;

/** Continue's own compaction buffer: a fifth of the window less the output, capped (src/compaction.ts). */
const AUTO_COMPACT_BUFFER_CAP = 15_000;
const AUTO_COMPACT_BUFFER_RATIO = 0.8;

/**
 * The input at which Continue compacts for a window (`contextLength`) and an output allowance
 * (`maxTokens`): the window less the allowance less a buffer of its own, the larger of the
 * allowance and a fifth of what the allowance leaves, at most 15,000 (`shouldAutoCompact`,
 * src/compaction.ts), which no setting changes.
 */
export function continueThreshold(contextLength, maxTokens) {
  const ratio = Math.ceil((1 - AUTO_COMPACT_BUFFER_RATIO) * (contextLength - maxTokens));
  return contextLength - maxTokens - Math.min(Math.max(maxTokens, ratio), AUTO_COMPACT_BUFFER_CAP);
}

/** The least integer in [low, high] for which `holds` is true, `holds` turning true once and staying so. */
function least(low, high, holds) {
  while (low < high) {
    const middle = Math.floor((low + high) / 2);
    if (holds(middle)) high = middle;
    else low = middle + 1;
  }
  return low;
}

/**
 * The kit's budget as Continue's `contextLength` and `maxTokens` (emulated,
 * `compaction.configure.reserve`): the kit compacts at the window less the larger of output
 * allowance and buffer; Continue at the window less the allowance less its own buffer, added up,
 * and it has no setting of a buffer. The adapter picks the two numbers that put Continue's
 * threshold at the kit's budget and give neither less than the kit: where the kit's reserve is
 * larger than Continue's would be, the window stays the kit's and the allowance grows until
 * Continue's reserve (allowance and buffer) is the kit's; where it is smaller, the allowance stays
 * the kit's and the window Continue is told grows until its threshold is the kit's budget.
 */
export function continueBudget({ contextWindow, outputAllowance, buffer }) {
  const budget = contextWindow - Math.max(outputAllowance, buffer);
  const allowance = Math.max(outputAllowance, 1);
  if (continueThreshold(contextWindow, allowance) >= budget) {
    const maxTokens = least(allowance, contextWindow - 1, (m) => continueThreshold(contextWindow, m) <= budget);
    return { contextLength: contextWindow, maxTokens, threshold: continueThreshold(contextWindow, maxTokens) };
  }
  const contextLength = least(
    contextWindow,
    2 * contextWindow + 2 * AUTO_COMPACT_BUFFER_CAP + allowance,
    (l) => continueThreshold(l, allowance) >= budget,
  );
  return { contextLength, maxTokens: allowance, threshold: continueThreshold(contextLength, allowance) };
}

/**
 * `model` is the kit's model name. Continue sends a model named like gpt-5 or o1 to the Responses
 * API whatever the provider (`chatCompletionStreamWithBackoff`, src/util/exponentialBackoff.ts):
 * such a name stays the kit's to choose, and the scenarios' names do not look like one.
 */
export function continueConfig({ provider, model, compaction }) {
  const options = {};
  if (compaction) {
    const { contextLength, maxTokens } = continueBudget(compaction);
    options.contextLength = contextLength;
    options.maxTokens = maxTokens;
  }
  return {
    name: 'kit',
    version: '0.0.1',
    schema: 'v1',
    models: [
      {
        name: model,
        provider: PROVIDERS[provider.dialect],
        model,
        apiBase: provider.baseUrl,
        apiKey: provider.apiKey,
        roles: ['chat'],
        ...(Object.keys(options).length > 0 && { defaultCompletionOptions: options }),
      },
    ],
  };
}
