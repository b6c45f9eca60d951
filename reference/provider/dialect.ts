import type { EventSourceMessage } from 'eventsource-parser';
import type { ProviderChunk, ProviderConfig } from './provider-turn-stream.js';
import type { ProviderRequest } from './provider-request.js';

/** Reads one response stream, frame by frame. */
export interface StreamDecoder {
  accept(message: EventSourceMessage): ProviderChunk[];
  /** True once the provider has said the response is complete. */
  readonly complete: boolean;
}

/** One provider wire protocol: how a request is encoded and its streamed response decoded. */
export interface ProviderDialect {
  /** Whether a refused request was refused because it does not fit the model's context window. */
  isContextOverflow(status: number, body: string): boolean;
  /** When a refusal's body says how long to wait, in seconds, where the dialect says it there. */
  retryAfter?(body: string): string | null;
  /** `path` is resolved against the base URL as a URL reference: `chat/completions` goes below it. */
  encode(
    request: ProviderRequest,
    config: ProviderConfig,
  ): { path: string; headers: Record<string, string>; body: object };
  decoder(): StreamDecoder;
}
