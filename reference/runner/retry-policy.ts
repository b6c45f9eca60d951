import { ProviderRejected } from '../provider/provider-turn-stream.js';

/** Retries after the first failed attempt of one provider turn (profile `sol`). */
export const MAX_RETRIES = 5;
export const BASE_RETRY_DELAY_MS = 2_000;
export const MAX_RETRY_DELAY_MS = 30_000;

const RETRYABLE = [
  'overloaded',
  'rate_limit',
  'rate limit',
  'too_many_requests',
  'too many requests',
  'server_error',
  'service_unavailable',
  'timeout',
  'econnreset',
  'connection reset',
  'econnrefused',
  'connection refused',
];

/**
 * Why a failed request may be sent again, or undefined when it may not. Only the caller knows
 * that a refusal was a context overflow, which is never retried here.
 */
export function retryReason(error: unknown): string | undefined {
  if (error instanceof ProviderRejected && (error.status === 429 || error.status >= 500))
    return `provider answered ${error.status}`;
  const text =
    `${error instanceof Error ? `${error.message} ${String(error.cause ?? '')}` : String(error)}`.toLowerCase();
  return RETRYABLE.find((marker) => text.includes(marker));
}

/** `Retry-After` (seconds or an HTTP date) decides when given; otherwise 2 s doubling per retry, at most 30 s. */
export function retryDelayMs(retry: number, retryAfter: string | null, now: Date): number {
  if (retryAfter !== null && retryAfter.trim() !== '') {
    const seconds = Number(retryAfter);
    if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
    const date = Date.parse(retryAfter);
    if (!Number.isNaN(date)) return Math.max(0, date - now.getTime());
  }
  return Math.min(BASE_RETRY_DELAY_MS * 2 ** (retry - 1), MAX_RETRY_DELAY_MS);
}
