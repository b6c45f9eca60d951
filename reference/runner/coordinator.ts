import type { DrainMode, DrainResult } from './drain.js';

type Drain = (sessionId: string, mode: DrainMode, signal: AbortSignal) => Promise<DrainResult>;

interface Chain {
  controller: AbortController;
  /** A wake or move that arrived during the chain; coalesced into one more drain. */
  rerun: DrainMode | undefined;
  done: Promise<void>;
}

/**
 * Serializes the drains of each session in this process while different sessions drain
 * concurrently. Interruption targets the active chain, not any durable state.
 */
export class SessionRunCoordinator {
  private readonly chains = new Map<string, Chain>();

  constructor(
    private readonly drain: Drain,
    private readonly onError: (sessionId: string, error: unknown) => void,
  ) {}

  /** Joins the active chain, or starts one that makes at least one provider attempt. */
  run(sessionId: string): Promise<void> {
    return (this.chains.get(sessionId) ?? this.start(sessionId, 'run')).done;
  }

  /** Reports new durable inbox work; wakes that arrive while a chain is active coalesce into one. */
  wake(sessionId: string): void {
    const chain = this.chains.get(sessionId);
    if (chain) chain.rerun ??= 'wake';
    else this.start(sessionId, 'wake');
  }

  /** Stops the active chain, waits for its cleanup, and drops the reruns it had collected. */
  async interrupt(sessionId: string): Promise<void> {
    const chain = this.chains.get(sessionId);
    if (!chain) return;
    chain.rerun = undefined;
    chain.controller.abort();
    await chain.done;
  }

  /** Whether the session has an active chain in this process. */
  busy(sessionId: string): boolean {
    return this.chains.has(sessionId);
  }

  async idle(sessionId: string): Promise<void> {
    for (let chain = this.chains.get(sessionId); chain; chain = this.chains.get(sessionId)) await chain.done;
  }

  /** Abandons every chain at once, as a process exit would; nothing waits for cleanup. */
  abandonAll(): void {
    for (const chain of this.chains.values()) {
      chain.rerun = undefined;
      chain.controller.abort();
    }
  }

  private start(sessionId: string, mode: DrainMode): Chain {
    const chain: Chain = { controller: new AbortController(), rerun: undefined, done: Promise.resolve() };
    this.chains.set(sessionId, chain);
    chain.done = this.loop(sessionId, chain, mode).finally(() => this.chains.delete(sessionId));
    return chain;
  }

  private async loop(sessionId: string, chain: Chain, mode: DrainMode): Promise<void> {
    try {
      for (let next: DrainMode | undefined = mode; next && !chain.controller.signal.aborted; ) {
        const result = await this.drain(sessionId, next, chain.controller.signal);
        // A moved session continues in its destination location with a fresh drain.
        next = chain.rerun ?? (result === 'moved' ? 'run' : undefined);
        chain.rerun = undefined;
      }
    } catch (error) {
      if (!chain.controller.signal.aborted) this.onError(sessionId, error);
    }
  }
}
