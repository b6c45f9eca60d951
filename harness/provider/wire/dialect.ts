import type { EncodedTurn, WireResponse } from '../scripted-turn.js';
import type { DecodedRequest } from '../captured-request.js';
import * as openaiChat from './openai-chat.js';
import * as anthropicMessages from './anthropic-messages.js';
import * as openaiResponses from './openai-responses.js';
import * as gemini from './gemini.js';

/** A request as the provider received it: the path it was sent to, and its JSON body. */
export interface WireRequest {
  path: string;
  body: unknown;
}

/** Everything the fake provider needs to know about one provider wire dialect. */
export interface Dialect {
  name: string;
  /** The request paths from the server's root; `{model}` stands for the model a path names. */
  paths: string[];
  /** `request` is the request the turn answers: a dialect may call a tool the way the request offers it. */
  encodeTurn(turn: EncodedTurn, model: string, responseId?: string, request?: WireRequest): WireResponse;
  decodeRequest(body: unknown): DecodedRequest;
}

export const dialects: Record<string, Dialect> = {
  'openai-chat': { name: 'openai-chat', paths: ['/v1/chat/completions'], ...openaiChat },
  'anthropic-messages': { name: 'anthropic-messages', paths: ['/v1/messages'], ...anthropicMessages },
  'openai-responses': { name: 'openai-responses', paths: ['/v1/responses'], ...openaiResponses },
  gemini: {
    name: 'gemini',
    paths: ['/v1beta/models/{model}:generateContent', '/v1beta/models/{model}:streamGenerateContent'],
    ...gemini,
  },
};

/**
 * Whether `pathname` is one of the dialect's paths: undefined when it is none, else the model the
 * path names, where it names one.
 */
export function routeOf(dialect: Dialect, pathname: string): { model?: string } | undefined {
  for (const path of dialect.paths) {
    const [before, after] = path.split('{model}') as [string, string | undefined];
    if (after === undefined) {
      if (pathname === path) return {};
    } else if (pathname.startsWith(before) && pathname.endsWith(after)) {
      const model = decodeURIComponent(pathname.slice(before.length, pathname.length - after.length));
      if (model !== '' && !model.includes('/')) return { model };
    }
  }
  return undefined;
}
