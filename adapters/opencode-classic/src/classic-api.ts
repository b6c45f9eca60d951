import { ApiError } from '../../opencode/shared/server/runner-adapter.js';
import { serverRequest, serverResponse } from '../../opencode/shared/server/server-request.js';

export { ApiError };

/** One part of a classic message, as `GET /session/:id/message` serves it. */
export interface ClassicPart {
  id: string;
  type: string;
  text?: string;
  synthetic?: boolean;
  ignored?: boolean;
  metadata?: Record<string, unknown>;
  mime?: string;
  filename?: string;
  url?: string;
  /** Where a file part came from (`FilePartSource`): OpenCode keeps it with the part. */
  source?: { type?: string; path?: string };
  tool?: string;
  callID?: string;
  state?: {
    status: 'pending' | 'running' | 'completed' | 'error';
    input?: unknown;
    output?: string;
    error?: string;
    metadata?: Record<string, unknown>;
    time?: { start?: number; end?: number; compacted?: number };
    /** The files a completed tool returned beside its output (the read tool's image or PDF), each as a data URL. */
    attachments?: { type?: string; mime?: string; url?: string; filename?: string }[];
  };
}

export interface ClassicMessage {
  info: {
    id: string;
    role: 'user' | 'assistant';
    parentID?: string;
    /** The agent the message was written for. */
    agent?: string;
    summary?: boolean;
    finish?: string;
    error?: { name: string; data?: Record<string, unknown> };
    time: { created: number; completed?: number };
  };
  parts: ClassicPart[];
}

/** A permission request waiting for a reply, as `GET /permission` serves it. */
export interface ClassicPermission {
  id: string;
  sessionID: string;
  permission: string;
  patterns?: string[];
  metadata?: Record<string, unknown>;
  /** The tool call that asked. */
  tool?: { messageID: string; callID: string };
}

/** One durable event, as `POST /sync/history` serves it: numbered per session from 0. */
export interface ClassicEvent {
  id: string;
  aggregate_id: string;
  seq: number;
  type: string;
  data: unknown;
}

/**
 * The classic routes of `opencode serve` (no `/api/` prefix), each scoped to a location by its
 * `directory` query parameter as OpenCode's own SDK sends it.
 */
export class ClassicApi {
  constructor(private readonly baseUrl: string) {}

  async call<T>(method: 'GET' | 'POST', path: string, directory: string, body?: unknown): Promise<T> {
    return serverRequest<T>(method, this.url(path, directory), path, body);
  }

  /**
   * One page of `GET /session/:id/message?limit=N&before=<cursor>`: the newest `limit` messages
   * before the cursor, oldest first, and the cursor of the page before it (`X-Next-Cursor`, absent
   * on the oldest page). OpenCode orders messages by creation time, then ID.
   */
  async messagePage(
    session: string,
    directory: string,
    limit: number,
    before: string | undefined,
  ): Promise<{ messages: ClassicMessage[]; next: string | undefined }> {
    const path = `/session/${encodeURIComponent(session)}/message?limit=${limit}${
      before === undefined ? '' : `&before=${encodeURIComponent(before)}`
    }`;
    const { body, headers } = await serverResponse<ClassicMessage[]>('GET', this.url(path, directory), path);
    return { messages: body, next: headers.get('x-next-cursor') ?? undefined };
  }

  /**
   * The session's durable events with a sequence number above `after` (all of them without it),
   * through `POST /sync/history`: its body maps each session the caller knows to the last
   * sequence number it has, and every session it does not name is answered whole, so the answer is
   * filtered to this session.
   */
  async events(session: string, directory: string, after: number | undefined): Promise<ClassicEvent[]> {
    const known = after === undefined ? {} : { [session]: after };
    const all = await this.call<ClassicEvent[]>('POST', '/sync/history', directory, known);
    return all.filter((event) => event.aggregate_id === session).sort((a, b) => a.seq - b.seq);
  }

  private url(path: string, directory: string): string {
    const separator = path.includes('?') ? '&' : '?';
    return `${this.baseUrl}${path}${separator}directory=${encodeURIComponent(directory)}`;
  }

  messages(session: string, directory: string): Promise<ClassicMessage[]> {
    return this.call('GET', `/session/${encodeURIComponent(session)}/message`, directory);
  }

  /** `busy` or `retry` while the session's loop runs; a session absent from the map is idle. */
  async status(session: string, directory: string): Promise<string> {
    const all = await this.call<Record<string, { type: string }>>('GET', '/session/status', directory);
    return all[session]?.type ?? 'idle';
  }

  async permissions(session: string, directory: string): Promise<ClassicPermission[]> {
    const all = await this.call<ClassicPermission[]>('GET', '/permission', directory);
    return all.filter((request) => request.sessionID === session);
  }
}
