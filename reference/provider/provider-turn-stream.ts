import type { FinishReason } from '../events/session-event.js';

/** A provider-neutral view of one streamed provider response. */
export type ProviderChunk =
  | { type: 'text'; delta: string }
  | { type: 'reasoning'; delta: string }
  | { type: 'reasoning-signature'; signature: string }
  | { type: 'tool-call'; index: number; id?: string; name?: string; argumentsDelta?: string }
  | { type: 'finish'; reason: FinishReason };

/** The provider refused the request (an HTTP error status) before streaming anything. */
export class ProviderRejected extends Error {
  constructor(
    readonly status: number,
    readonly body: string,
  ) {
    super(`provider answered ${status}: ${body.slice(0, 500)}`);
    this.name = 'ProviderRejected';
  }
}

/** The response stream ended before the provider said it was finished. */
export class StreamCut extends Error {
  constructor(detail: string) {
    super(`provider stream ended early: ${detail}`);
    this.name = 'StreamCut';
  }
}

export interface ProviderConfig {
  dialect: 'openai-chat' | 'anthropic-messages';
  baseUrl: string;
  apiKey: string;
  model: string;
}
