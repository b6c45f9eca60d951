import type { EncodedTurn, WireResponse } from '../scripted-turn.js';
import type { DecodedRequest } from '../captured-request.js';
import * as openaiChat from './openai-chat.js';
import * as anthropicMessages from './anthropic-messages.js';
import * as openaiResponses from './openai-responses.js';

/** Everything the fake provider needs to know about one provider wire dialect. */
export interface Dialect {
  name: string;
  /** The request path under the base URL. */
  path: string;
  /** `request` is the body the turn answers: a dialect may call a tool the way the request offers it. */
  encodeTurn(turn: EncodedTurn, model: string, responseId?: string, request?: unknown): WireResponse;
  decodeRequest(body: unknown): DecodedRequest;
}

export const dialects: Record<string, Dialect> = {
  'openai-chat': { name: 'openai-chat', path: '/chat/completions', ...openaiChat },
  'anthropic-messages': { name: 'anthropic-messages', path: '/messages', ...anthropicMessages },
  'openai-responses': { name: 'openai-responses', path: '/responses', ...openaiResponses },
};
