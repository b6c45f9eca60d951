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

  constructor(db: Db) {
    this.list = db.prepare<[string], MessageRow>(
      'SELECT id, seq, role, hidden, status, body FROM messages WHERE session_id = ? ORDER BY seq',
    );
  }

  messages(sessionId: string): SessionMessage[] {
    return this.list.all(sessionId).map(toMessage);
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
