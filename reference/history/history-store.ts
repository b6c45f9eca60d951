import { RuntimeError } from '../errors.js';
import type { Db } from '../store/database.js';
import type { SessionMessage } from './message.js';

interface MessageRow {
  id: string;
  seq: number;
  role: SessionMessage['role'];
  hidden: number;
  status: string;
  body: string;
}

/** How many sessions keep their parsed history: the ones being drained at the same time. */
const PARSED_SESSIONS = 8;

/** Reads projected session messages in durable event order (never by ID or timestamp). */
export class HistoryStore {
  private readonly list;
  private readonly newest;
  private readonly newestBefore;
  private readonly known;
  private readonly version;
  private readonly parsed = new Map<string, { version: number; messages: SessionMessage[] }>();

  constructor(private readonly db: Db) {
    this.version = db.prepare<[string], { last_seq: number }>('SELECT last_seq FROM sessions WHERE id = ?');
    this.list = db.prepare<[string], MessageRow>(
      'SELECT id, seq, role, hidden, status, body FROM messages WHERE session_id = ? ORDER BY seq',
    );
    this.newest = db.prepare<[string, number], MessageRow>(
      'SELECT id, seq, role, hidden, status, body FROM messages WHERE session_id = ? ORDER BY seq DESC LIMIT ?',
    );
    this.newestBefore = db.prepare<[string, string, number], MessageRow>(
      `SELECT m.id, m.seq, m.role, m.hidden, m.status, m.body FROM messages m
       JOIN messages cursor ON cursor.session_id = m.session_id AND cursor.id = ?
       WHERE m.session_id = ? AND m.seq < cursor.seq ORDER BY m.seq DESC LIMIT ?`,
    );
    this.known = db.prepare<[string, string], { id: string }>(
      'SELECT id FROM messages WHERE session_id = ? AND id = ?',
    );
  }

  /**
   * The whole history, read several times per provider turn: it is parsed once per version of the
   * session, the seq of its last event, which every change to its messages advances. A version
   * read inside a transaction is not kept, since the transaction may still roll back. The
   * messages are shared between callers, who never change them.
   */
  messages(sessionId: string): SessionMessage[] {
    const version = this.version.get(sessionId)?.last_seq;
    const cached = this.parsed.get(sessionId);
    if (cached && cached.version === version) return [...cached.messages];
    const messages = this.list.all(sessionId).map(toMessage);
    if (version !== undefined && !this.db.inTransaction) this.keep(sessionId, version, messages);
    return [...messages];
  }

  /** The newest `limit` messages before message `before`, oldest first: the cursor's place is its seq, never its ID. */
  page(sessionId: string, limit: number, before?: string): SessionMessage[] {
    if (before === undefined) return this.newest.all(sessionId, limit).reverse().map(toMessage);
    if (!this.known.get(sessionId, before))
      throw new RuntimeError('not-found', `no message ${before} in session ${sessionId}`);
    return this.newestBefore.all(before, sessionId, limit).reverse().map(toMessage);
  }

  private keep(sessionId: string, version: number, messages: SessionMessage[]): void {
    this.parsed.delete(sessionId);
    this.parsed.set(sessionId, { version, messages });
    const oldest = this.parsed.keys().next().value;
    if (this.parsed.size > PARSED_SESSIONS && oldest !== undefined) this.parsed.delete(oldest);
  }
}

function toMessage(row: MessageRow): SessionMessage {
  const body = JSON.parse(row.body);
  const base = { id: row.id, seq: row.seq, hidden: row.hidden === 1 };
  switch (row.role) {
    case 'user': {
      const { continuation, continuationOfMedia, ...prompt } = body;
      return {
        ...base,
        role: 'user',
        prompt,
        ...(continuation ? { continuation: true } : {}),
        ...(continuationOfMedia ? { continuationOfMedia: true } : {}),
      };
    }
    case 'assistant':
      return { ...base, role: 'assistant', status: row.status as 'completed', ...body };
    case 'tool':
      return { ...base, role: 'tool', status: row.status as 'running', ...body };
    case 'system':
      return { ...base, role: 'system', text: body.text, keys: body.keys ?? [] };
    case 'compaction':
      return { ...base, role: 'compaction', ...body };
  }
}
