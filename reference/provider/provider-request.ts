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
}
