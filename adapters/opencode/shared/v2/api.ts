import { ApiError } from '../server/runner-adapter.js';
import { serverRequest } from '../server/server-request.js';

export { ApiError };

/** One durable event of a session, as `GET /api/session/:id/history` serves it. */
export interface DurableEvent {
  id: string;
  type: string;
  durable?: { seq: number };
  data: Record<string, unknown> & { timestamp: number };
}

/**
 * Routes outside `/api/` the adapter may use: the experimental control plane's move, which serves
 * no location (its route group boots no instance, so it starts no package install).
 */
const EXPERIMENTAL_ROUTES = new Set(['/experimental/control-plane/move-session']);

/**
 * The V2 routes under `/api/` only, and the experimental routes named above: the classic routes
 * start a background package install that tries the network.
 */
export class OpencodeApi {
  constructor(
    private readonly baseUrl: string,
    private readonly directoryHeader: string,
  ) {}

  async call<T>(method: 'GET' | 'POST' | 'DELETE', path: string, body?: unknown, directory?: string): Promise<T> {
    if (!path.startsWith('/api/') && !EXPERIMENTAL_ROUTES.has(path))
      throw new Error(`only V2 routes may be used, not ${path}`);
    const headers: Record<string, string> =
      directory === undefined ? {} : { [this.directoryHeader]: encodeURIComponent(directory) };
    return serverRequest<T>(method, `${this.baseUrl}${path}`, path, body, headers);
  }

  /** Every durable event after `after`, page by page. */
  async history(sessionId: string, after = 0): Promise<DurableEvent[]> {
    const events: DurableEvent[] = [];
    let cursor = after;
    for (;;) {
      const page = await this.call<{ data: DurableEvent[] }>(
        'GET',
        `/api/session/${encodeURIComponent(sessionId)}/history?after=${cursor}&limit=100`,
      );
      const fresh = page.data.filter((event) => (event.durable?.seq ?? 0) > cursor);
      events.push(...fresh);
      if (fresh.length === 0) return events;
      cursor = fresh.at(-1)!.durable!.seq;
    }
  }

  /**
   * OpenCode boots each location's services, its model catalog among them, in the background on
   * the first request for that location; a drain started before the catalog holds the model fails
   * with "Model unavailable" and leaves no durable trace. So wait until the location offers it.
   */
  async modelOffered(directory: string, providerID: string, model: string, withinMs: number): Promise<void> {
    const deadline = Date.now() + withinMs;
    for (;;) {
      const catalog = await this.call<{ data: { providerID: string; id: string }[] }>(
        'GET',
        '/api/model',
        undefined,
        directory,
      );
      if (catalog.data.some((entry) => entry.providerID === providerID && entry.id === model)) return;
      if (Date.now() > deadline)
        throw new Error(
          `OpenCode did not offer the model ${providerID}/${model} at ${directory} within ${withinMs} ms`,
        );
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }

  async active(): Promise<Set<string>> {
    const answer = await this.call<{ data: Record<string, unknown> }>('GET', '/api/session/active');
    return new Set(Object.keys(answer.data ?? {}));
  }
}
