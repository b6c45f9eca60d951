/**
 * Continue's configuration for a kit runtime (`--config <file>`): one chat model, the kit's
 * provider in the hello's dialect, and the budget `compaction.configure` set. Written as JSON,
 * which Continue's YAML loader reads as it reads YAML.
 */
const PROVIDERS = { 'openai-chat': 'openai', 'anthropic-messages': 'anthropic' };

export const dialectSupported = (dialect) => dialect in PROVIDERS;

/**
 * `model` is the kit's model name. Continue sends a model named like gpt-5 or o1 to the Responses
 * API whatever the provider (`chatCompletionStreamWithBackoff`, src/util/exponentialBackoff.ts):
 * such a name stays the kit's to choose, and the scenarios' names do not look like one.
 */
export function continueConfig({ provider, model, compaction }) {
  const options = {};
  if (compaction) {
    // Continue compacts at its window less its output allowance less its own buffer
    // (src/util/tokenizer.ts, src/stream/streamChatResponse.autoCompaction.ts).
    options.contextLength = compaction.contextWindow;
    if (compaction.outputAllowance > 0) options.maxTokens = compaction.outputAllowance;
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
