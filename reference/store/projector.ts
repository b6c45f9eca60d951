import type { Statements } from './database.js';
import type { SessionEvent } from '../events/session-event.js';
import { toolMessageId, type SessionMessage } from '../history/message.js';

/**
 * Applies one event to the projection tables. Called only by the event log, inside the
 * transaction that appends the event: a projection change never exists without its event.
 */
export function project(db: Statements, sessionId: string, seq: number, event: SessionEvent): void {
  switch (event.type) {
    case 'session.created':
    case 'session.failed':
      return;
    case 'session.moved':
      db.prepare('UPDATE sessions SET location = ?, project_root = ? WHERE id = ?').run(
        event.location,
        event.projectRoot,
        sessionId,
      );
      db.prepare('DELETE FROM discovered_instructions WHERE session_id = ?').run(sessionId);
      return;
    case 'instructions.discovered':
      for (const path of event.paths) {
        db.prepare(
          'INSERT OR IGNORE INTO discovered_instructions (session_id, path, discovered_seq) VALUES (?, ?, ?)',
        ).run(sessionId, path, seq);
      }
      return;
    case 'session.selected':
      if (event.agent !== undefined)
        db.prepare('UPDATE sessions SET agent = ? WHERE id = ?').run(event.agent, sessionId);
      if (event.model !== undefined)
        db.prepare('UPDATE sessions SET model = ? WHERE id = ?').run(event.model, sessionId);
      return;
    case 'context.initialized':
      db.prepare('INSERT OR REPLACE INTO context_epochs (session_id, baseline, snapshot) VALUES (?, ?, ?)').run(
        sessionId,
        JSON.stringify(event.parts),
        JSON.stringify(event.snapshot),
      );
      return;
    case 'context.updated': {
      // The message and the snapshot it admits change together, or not at all.
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
      const advanced = db
        .prepare('UPDATE context_epochs SET snapshot = ? WHERE session_id = ?')
        .run(JSON.stringify(event.snapshot), sessionId);
      if (advanced.changes !== 1) throw new Error(`session ${sessionId} has no context epoch to update`);
      return;
    }
    case 'context.cleared':
      db.prepare('DELETE FROM context_epochs WHERE session_id = ?').run(sessionId);
      return;
    case 'context.replaced':
      db.prepare(
        'UPDATE context_epochs SET baseline = ?, snapshot = ?, replacement_pending = 0 WHERE session_id = ?',
      ).run(JSON.stringify(event.parts), JSON.stringify(event.snapshot), sessionId);
      return;
    case 'context.replacement-requested':
      db.prepare('UPDATE context_epochs SET replacement_pending = 1 WHERE session_id = ?').run(sessionId);
      return;
    case 'compaction.requested':
      db.prepare('UPDATE sessions SET compaction_requested = 1 WHERE id = ?').run(sessionId);
      return;
    case 'compaction.started':
    case 'compaction.failed':
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
      db.prepare('UPDATE sessions SET compaction_requested = 0 WHERE id = ?').run(sessionId);
      db.prepare('UPDATE context_epochs SET replacement_pending = 1 WHERE session_id = ?').run(sessionId);
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

function insertMessage(
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
