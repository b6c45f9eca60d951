import type { ModelMessage } from '../history/message.js';
import type { ToolDefinition } from '../tools/tool.js';

/** Everything one provider turn sends, before a dialect encodes it for the wire. */
export interface ProviderRequest {
  model: string;
  /** The Baseline System Context, as its system parts in order. */
  baseline: string[];
  /** Session History for this turn, Mid-Conversation System Messages in place. */
  history: ModelMessage[];
  tools: ToolDefinition[];
  /** The most the model may answer, in tokens, when the request limits it. */
  maxOutputTokens?: number;
  /** The session's provider options, on every request of the session, its compaction requests too. */
  options?: ProviderOptions;
}

/** Provider-specific options that belong to the session rather than to one request. */
export interface ProviderOptions {
  /** What the provider keys its prompt cache to (OpenAI's `prompt_cache_key`): the session. */
  promptCacheKey: string;
}

/** The provider options of a session's requests: its prompt cache is keyed to it. */
export function sessionProviderOptions(sessionId: string): ProviderOptions {
  return { promptCacheKey: sessionId };
}
