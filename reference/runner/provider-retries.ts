import type { Clock } from '../clock.js';
import { ProviderRejected, type ProviderChunk } from '../provider/provider-turn-stream.js';
import { MAX_RETRIES, retryDelayMs, retryReason } from './retry-policy.js';

/** A retry the runtime has scheduled and is waiting for, on the runtime's clock. */
export interface ScheduledRetry {
  sessionId: string;
  /** 1 for the first retry of a provider turn. */
  retry: number;
  delayMs: number;
  at: Date;
  reason: string;
}

/**
 * Sends a provider request again after a retryable failure, as long as nothing of the response has
 * arrived. The waits run on the runtime's clock, and each scheduled retry can be observed.
 */
export class ProviderRetries {
  private readonly scheduled: ScheduledRetry[] = [];
  private readonly watchers = new Set<() => void>();

  constructor(private readonly clock: Clock) {}

  async *stream(
    sessionId: string,
    open: () => AsyncGenerator<ProviderChunk>,
    isContextOverflow: (error: ProviderRejected) => boolean,
    signal: AbortSignal,
  ): AsyncGenerator<ProviderChunk> {
    try {
      for (let retry = 1; ; retry++) {
        let received = false;
        try {
          for await (const chunk of open()) {
            received = true;
            yield chunk;
          }
          return;
        } catch (error) {
          const overflow = error instanceof ProviderRejected && isContextOverflow(error);
          const reason = received || overflow || signal.aborted || retry > MAX_RETRIES ? undefined : retryReason(error);
          if (reason === undefined) throw error;
          await this.wait(
            sessionId,
            retry,
            reason,
            error instanceof ProviderRejected ? error.retryAfter : null,
            signal,
          );
        }
      }
    } finally {
      // Retries are numbered per provider turn: the next turn's first retry is 1 again.
      this.scheduled.splice(0, this.scheduled.length, ...this.scheduled.filter((s) => s.sessionId !== sessionId));
    }
  }

  /** Resolves with the session's retry number `retry` once it is scheduled. */
  async whenScheduled(sessionId: string, retry: number): Promise<ScheduledRetry> {
    for (;;) {
      const found = this.scheduled.find((s) => s.sessionId === sessionId && s.retry === retry);
      if (found) return found;
      await new Promise<void>((resolve) => this.watchers.add(resolve));
    }
  }

  private async wait(
    sessionId: string,
    retry: number,
    reason: string,
    retryAfter: string | null,
    signal: AbortSignal,
  ): Promise<void> {
    const now = this.clock.now();
    const delayMs = retryDelayMs(retry, retryAfter, now);
    const at = new Date(now.getTime() + delayMs);
    this.scheduled.push({ sessionId, retry, delayMs, at, reason });
    for (const notify of [...this.watchers]) {
      this.watchers.delete(notify);
      notify();
    }
    await this.clock.until(at, signal);
  }
}
