export interface PermissionRequest {
  id: string;
  sessionId: string;
  tool: string;
  /** The agent of the provider turn that issued the call; its policy decided to ask. */
  agent: string;
  /** What an approval saved for the project would match (the shell's command), where the call has one. */
  pattern?: string;
}

/** Tool calls waiting for the user's decision. */
export class PermissionBoard {
  private readonly waiting = new Map<string, { request: PermissionRequest; decide: (approved: boolean) => void }>();
  private readonly watchers: { sessionId: string; notify: () => void }[] = [];

  ask(request: PermissionRequest, signal: AbortSignal): Promise<boolean> {
    return new Promise((resolve, reject) => {
      const onAbort = () => {
        this.waiting.delete(request.id);
        reject(signal.reason);
      };
      signal.addEventListener('abort', onAbort, { once: true });
      this.waiting.set(request.id, {
        request,
        decide: (approved) => {
          signal.removeEventListener('abort', onAbort);
          resolve(approved);
        },
      });
      for (const watcher of this.watchers.filter((w) => w.sessionId === request.sessionId)) {
        this.watchers.splice(this.watchers.indexOf(watcher), 1);
        watcher.notify();
      }
    });
  }

  pending(sessionId: string): PermissionRequest[] {
    return [...this.waiting.values()].map((w) => w.request).filter((r) => r.sessionId === sessionId);
  }

  /** The request answered, or undefined when none waits under `id`. */
  reply(id: string, approved: boolean): PermissionRequest | undefined {
    const entry = this.waiting.get(id);
    if (!entry) return undefined;
    this.waiting.delete(id);
    entry.decide(approved);
    return entry.request;
  }

  /** Resolves once the session has a request waiting. */
  whenPending(sessionId: string): Promise<void> {
    if (this.pending(sessionId).length > 0) return Promise.resolve();
    return new Promise((resolve) => this.watchers.push({ sessionId, notify: resolve }));
  }
}
