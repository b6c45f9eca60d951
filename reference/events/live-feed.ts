/** Live-only streaming fragments for connected renderers. Never stored, never replayed. */
export interface LiveDelta {
  sessionId: string;
  messageId: string;
  delta: string;
}

export class LiveFeed {
  private readonly listeners = new Set<(delta: LiveDelta) => void>();

  subscribe(listener: (delta: LiveDelta) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  publish(delta: LiveDelta): void {
    for (const listener of this.listeners) listener(delta);
  }
}
