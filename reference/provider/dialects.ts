import type { ProviderDialect } from './dialect.js';
import type { ProviderConfig } from './provider-turn-stream.js';
import { openaiChat } from './openai-chat.js';
import { anthropicMessages } from './anthropic-messages.js';
import { openaiResponses } from './openai-responses.js';
import { gemini } from './gemini.js';

const dialects: Partial<Record<ProviderConfig['dialect'], ProviderDialect>> = {
  'openai-chat': openaiChat,
  'anthropic-messages': anthropicMessages,
  'openai-responses': openaiResponses,
  gemini,
};

export function dialectFor(name: ProviderConfig['dialect']): ProviderDialect {
  const dialect = dialects[name];
  if (!dialect) throw new Error(`no provider dialect ${name}`);
  return dialect;
}
