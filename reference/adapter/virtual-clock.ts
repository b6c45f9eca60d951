import type { Clock } from '../clock.js';

/** The kit's clock: it moves only when the kit sets it, and then wakes whoever waited for that time. */
export class VirtualClock implements Clock {
  private readonly waiters = new Set<{ at: number; wake: () => void }>();

  constructor(private current: Date) {}

  now(): Date {
    return this.current;
  }

  set(now: Date): void {
    this.current = now;
    for (const waiter of [...this.waiters]) if (waiter.at <= now.getTime()) waiter.wake();
  }

  until(at: Date, signal: AbortSignal): Promise<void> {
    if (at.getTime() <= this.current.getTime()) return Promise.resolve();
    return new Promise((resolve, reject) => {
      const waiter = {
        at: at.getTime(),
        wake: () => {
          this.waiters.delete(waiter);
          signal.removeEventListener('abort', onAbort);
          resolve();
        },
      };
      const onAbort = () => {
        this.waiters.delete(waiter);
        reject(signal.reason);
      };
      this.waiters.add(waiter);
      signal.addEventListener('abort', onAbort, { once: true });
    });
  }
}
