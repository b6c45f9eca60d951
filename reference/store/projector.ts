import type { Db } from './database.js';
import type { SessionEvent } from '../events/session-event.js';
import { toolMessageId, type SessionMessage } from '../history/message.js';

/**
 * Applies one event to the projection tables. Called only by the event log, inside the
 * transaction that appends the event: a projection change never exists without its event.
 */
export function project(db: Db, sessionId: string, seq: number, event: SessionEvent): void {
  switch (event.type) {
    case 'session.created':
    case 'session.failed':
      return;
    case 'session.moved':
      db.prepare('UPDATE sessions SET location = ? WHERE id = ?').run(event.location, sessionId);
      return;
    case 'prompt.admitted':
      db.prepare(
        'INSERT INTO inbox (message_id, session_id, prompt, delivery, admitted_seq) VALUES (?, ?, ?, ?, ?)',
      ).run(event.messageId, sessionId, JSON.stringify(event.prompt), event.delivery, seq);
      return;
    case 'prompt.promoted': {
      const row = db
        .prepare<[number, string], { prompt: string }>(
          'UPDATE inbox SET promoted_seq = ? WHERE message_id = ? AND promoted_seq IS NULL RETURNING prompt',
        )
        .get(seq, event.messageId);
      if (!row) throw new Error(`prompt ${event.messageId} is not pending`);
      insertMessage(db, sessionId, seq, event.messageId, 'user', 'completed', JSON.parse(row.prompt));
      return;
    }
    case 'assistant.started':
      insertMessage(db, sessionId, seq, event.messageId, 'assistant', 'streaming', {
        model: event.model,
        text: '',
        toolCalls: [],
      });
      return;
    case 'tool.called':
      updateBody(db, event.assistantMessageId, (body) => {
        (body.toolCalls as unknown[]).push({ callId: event.callId, name: event.name, input: event.input });
      });
      insertMessage(db, sessionId, seq, toolMessageId(event.assistantMessageId, event.callId), 'tool', 'running', {
        assistantMessageId: event.assistantMessageId,
        callId: event.callId,
        name: event.name,
        input: event.input,
      });
      return;
    case 'tool.settled': {
      const id = toolMessageId(event.assistantMessageId, event.callId);
      updateBody(db, id, (body) => {
        body.output = event.output;
      });
      setStatus(db, id, event.status);
      return;
    }
    case 'assistant.completed':
      updateBody(db, event.messageId, (body) => {
        body.text = event.text;
        body.finish = event.finish;
        if (event.reasoning) body.reasoning = event.reasoning;
      });
      setStatus(db, event.messageId, 'completed');
      return;
    case 'assistant.failed':
      updateBody(db, event.messageId, (body) => {
        body.text = event.text;
        body.failure = { reason: event.reason, message: event.message };
      });
      setStatus(db, event.messageId, 'failed');
      return;
  }
}

function insertMessage(
  db: Db,
  sessionId: string,
  seq: number,
  id: string,
  role: SessionMessage['role'],
  status: string,
  body: object,
): void {
  db.prepare('INSERT INTO messages (id, session_id, seq, role, status, body) VALUES (?, ?, ?, ?, ?, ?)').run(
    id,
    sessionId,
    seq,
    role,
    status,
    JSON.stringify(body),
  );
}

function updateBody(db: Db, id: string, change: (body: Record<string, unknown>) => void): void {
  const row = db.prepare<[string], { body: string }>('SELECT body FROM messages WHERE id = ?').get(id);
  if (!row) throw new Error(`no message ${id}`);
  const body = JSON.parse(row.body) as Record<string, unknown>;
  change(body);
  db.prepare('UPDATE messages SET body = ? WHERE id = ?').run(JSON.stringify(body), id);
}

function setStatus(db: Db, id: string, status: string): void {
  db.prepare('UPDATE messages SET status = ? WHERE id = ?').run(status, id);
}
