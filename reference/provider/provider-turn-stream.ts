import type { FinishReason, TokenUsage } from '../events/session-event.js';

/** A provider-neutral view of one streamed provider response. */
export type ProviderChunk =
  | { type: 'text'; delta: string }
  | { type: 'reasoning'; delta: string }
  | { type: 'reasoning-signature'; signature: string }
  /** The provider's own ID of the answer's text item: metadata replayed only to the model that wrote it. */
  | { type: 'item-id'; id: string }
  /**
   * A content block of a tool the provider executed itself, kept whole and replayed exactly: it
   * is a provider-native transcript fact, never a local tool settlement.
   */
  | { type: 'provider-block'; index: number; block: Record<string, unknown> }
  | { type: 'provider-block-input'; index: number; delta: string }
  | { type: 'tool-call'; index: number; id?: string; name?: string; argumentsDelta?: string }
  | { type: 'finish'; reason: FinishReason }
  | { type: 'usage'; usage: TokenUsage };

/**
 * The provider refused the request: an HTTP error status before streaming anything, or a dialect's
 * failed response that reports a refusal (status 200, its error as the body).
 */
export class ProviderRejected extends Error {
  constructor(
    readonly status: number,
    readonly body: string,
    /** The response's `Retry-After` header, when it had one. */
    readonly retryAfter: string | null = null,
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

/** The response breaks a rule every dialect shares, so it cannot be recorded as sent. */
export class MalformedResponse extends Error {
  constructor(detail: string) {
    super(`provider response is malformed: ${detail}`);
    this.name = 'MalformedResponse';
  }
}

export interface ProviderConfig {
  dialect: 'openai-chat' | 'anthropic-messages' | 'openai-responses' | 'gemini';
  baseUrl: string;
  apiKey: string;
  model: string;
}
