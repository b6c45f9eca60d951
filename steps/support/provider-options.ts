/**
 * The provider-specific options a request body carries, per dialect: the fields a runtime sets from
 * its provider options (`004`'s `CompactOptions.ProviderOptions`: "store, promptCacheKey, etc.";
 * the AI SDK's `providerOptions` land in these), not the conversation, the model, the tools, the
 * output limit or the streaming switch. A value is read as sent, JSON-encoded for comparison.
 */
const OPTION_FIELDS: Record<string, readonly string[]> = {
  'openai-chat': [
    'store',
    'prompt_cache_key',
    'prompt_cache_retention',
    'reasoning_effort',
    'service_tier',
    'user',
    'metadata',
    'verbosity',
    'safety_identifier',
  ],
  'openai-responses': [
    'store',
    'include',
    'prompt_cache_key',
    'prompt_cache_retention',
    'reasoning',
    'service_tier',
    'text',
    'user',
    'metadata',
    'safety_identifier',
    'truncation',
  ],
  'anthropic-messages': ['thinking', 'metadata', 'service_tier'],
  gemini: ['safetySettings', 'cachedContent', 'labels', 'generationConfig.thinkingConfig'],
};

/** The provider options of a request body of `dialect`, field by field. */
export function providerOptions(dialect: string, body: unknown): Map<string, string> {
  const options = new Map<string, string>();
  for (const field of OPTION_FIELDS[dialect] ?? []) {
    const value = field.split('.').reduce<unknown>((at, key) => (isRecord(at) ? at[key] : undefined), body);
    if (value !== undefined) options.set(field, JSON.stringify(value));
  }
  return options;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
