import type { DurableEvent } from './api.js';

/**
 * A live subscription to `GET /api/session/:id/event?after=N`: OpenCode replays the durable
 * events after the cursor, then tails new ones on the same stream.
 */
export class EventStream {
  readonly buffer: DurableEvent[] = [];
  private readonly abort = new AbortController();
  private failure: Error | undefined;

  constructor(url: string) {
    void this.read(url).catch((error: unknown) => {
      if (!this.abort.signal.aborted) this.failure = error instanceof Error ? error : new Error(String(error));
    });
  }

  take(): DurableEvent[] {
    if (this.failure) throw this.failure;
    return this.buffer.splice(0);
  }

  close(): void {
    this.abort.abort();
  }

  private async read(url: string): Promise<void> {
    const response = await fetch(url, { headers: { accept: 'text/event-stream' }, signal: this.abort.signal });
    if (!response.ok || !response.body) throw new Error(`GET ${url} answered ${response.status}`);
    const decoder = new TextDecoder();
    let pending = '';
    for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
      pending += decoder.decode(chunk, { stream: true }).replace(/\r\n/g, '\n');
      for (let end = pending.indexOf('\n\n'); end >= 0; end = pending.indexOf('\n\n')) {
        const block = pending.slice(0, end);
        pending = pending.slice(end + 2);
        const data = block
          .split('\n')
          .filter((line) => line.startsWith('data:'))
          .map((line) => line.slice(5).replace(/^ /, ''))
          .join('\n');
        if (!data) continue;
        const event = JSON.parse(data) as DurableEvent;
        if (event.durable) this.buffer.push(event);
      }
    }
  }
}
