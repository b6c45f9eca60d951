import type { Statements } from '../store/database.js';
import type { SessionEvent } from '../events/session-event.js';
import { toolMessageId, type SessionMessage } from './message.js';

/** Session History: every message in order, hidden ones included, each with its role-specific body. */
export const MESSAGES_SCHEMA = `
CREATE TABLE IF NOT EXISTS messages (
  id TEXT PRIMARY KEY,
  session_id TEXT NOT NULL REFERENCES sessions(id),
  seq INTEGER NOT NULL,
  role TEXT NOT NULL CHECK (role IN ('user', 'assistant', 'tool', 'system', 'compaction')),
  hidden INTEGER NOT NULL DEFAULT 0,
  status TEXT NOT NULL,
  body TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS messages_in_order ON messages (session_id, seq);
`;

export function projectHistory(db: Statements, sessionId: string, seq: number, event: SessionEvent): void {
  switch (event.type) {
    case 'context.updated':
      insertMessage(
        db,
        sessionId,
        seq,
        event.messageId,
        'system',
        'completed',
        { text: event.text, keys: event.keys },
        true,
      );
      return;
    case 'compaction.ended': {
      const { summary, recentContext, cutSeq } = event;
      insertMessage(
        db,
        sessionId,
        seq,
        event.messageId,
        'compaction',
        'completed',
        { summary, recentContext, cutSeq },
        true,
      );
      return;
    }
    case 'continuation.injected':
      insertMessage(
        db,
        sessionId,
        seq,
        event.messageId,
        'user',
        'completed',
        { ...event.prompt, continuation: true, ...(event.ofMedia ? { continuationOfMedia: true } : {}) },
        true,
      );
      return;
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
        if (event.providerBlocks) body.providerBlocks = event.providerBlocks;
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
        if (event.structured !== undefined) body.structured = event.structured;
        if (event.outputPath !== undefined) body.outputPath = event.outputPath;
        if (event.attachments?.length) body.attachments = event.attachments;
      });
      setStatus(db, id, event.status);
      return;
    }
    case 'tool.pruned':
      for (const id of event.messageIds)
        updateBody(db, id, (body) => {
          body.pruned = true;
        });
      return;
    case 'assistant.completed':
      updateBody(db, event.messageId, (body) => {
        body.text = event.text;
        body.finish = event.finish;
        if (event.reasoning) body.reasoning = event.reasoning;
        if (event.itemId) body.itemId = event.itemId;
        if (event.providerBlocks) body.providerBlocks = event.providerBlocks;
        if (event.usage) body.usage = event.usage;
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

export function insertMessage(
  db: Statements,
  sessionId: string,
  seq: number,
  id: string,
  role: SessionMessage['role'],
  status: string,
  body: object,
  hidden = false,
): void {
  db.prepare('INSERT INTO messages (id, session_id, seq, role, hidden, status, body) VALUES (?, ?, ?, ?, ?, ?, ?)').run(
    id,
    sessionId,
    seq,
    role,
    hidden ? 1 : 0,
    status,
    JSON.stringify(body),
  );
}

function updateBody(db: Statements, id: string, change: (body: Record<string, unknown>) => void): void {
  const row = db.prepare<[string], { body: string }>('SELECT body FROM messages WHERE id = ?').get(id);
  if (!row) throw new Error(`no message ${id}`);
  const body = JSON.parse(row.body) as Record<string, unknown>;
  change(body);
  db.prepare('UPDATE messages SET body = ? WHERE id = ?').run(JSON.stringify(body), id);
}

function setStatus(db: Statements, id: string, status: string): void {
  db.prepare('UPDATE messages SET status = ? WHERE id = ?').run(status, id);
}
