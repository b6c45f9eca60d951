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

/** Reads projected session messages in durable event order (never by ID or timestamp). */
export class HistoryStore {
  private readonly list;
  private readonly newest;
  private readonly newestBefore;
  private readonly known;

  constructor(db: Db) {
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

  messages(sessionId: string): SessionMessage[] {
    return this.list.all(sessionId).map(toMessage);
  }

  /** The newest `limit` messages before message `before`, oldest first: the cursor's place is its seq, never its ID. */
  page(sessionId: string, limit: number, before?: string): SessionMessage[] {
    if (before === undefined) return this.newest.all(sessionId, limit).reverse().map(toMessage);
    if (!this.known.get(sessionId, before))
      throw new RuntimeError('not-found', `no message ${before} in session ${sessionId}`);
    return this.newestBefore.all(before, sessionId, limit).reverse().map(toMessage);
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
