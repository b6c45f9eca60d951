import type { SessionMessage } from '../history/message.js';
import type { InboxRow } from '../inbox/inbox.js';
import { promptText, type StoredEvent } from '../events/session-event.js';

/** The runtime's records as the kit's protocol shows them. */

export function toKitEvent(stored: StoredEvent) {
  return { seq: stored.seq, type: stored.event.type, at: stored.at };
}

export function toKitInboxRow(row: InboxRow) {
  return {
    messageId: row.messageId,
    text: promptText(row.prompt),
    delivery: row.delivery,
    state: row.promotedSeq === null ? 'pending' : 'promoted',
    admittedSeq: row.admittedSeq,
    promotedSeq: row.promotedSeq,
  };
}

export function toKitMessage(message: SessionMessage) {
  const base = { id: message.id, seq: message.seq, role: message.role, hidden: message.hidden };
  switch (message.role) {
    case 'user':
      return {
        ...base,
        text: promptText(message.prompt),
        ...(message.prompt.metadata ? { metadata: message.prompt.metadata } : {}),
        ...(message.continuation ? { continuation: true } : {}),
        ...(message.continuationOfMedia ? { continuationOfMedia: true } : {}),
      };
    case 'assistant':
      return { ...base, status: message.status, text: message.text, toolCalls: message.toolCalls };
    case 'system':
      return { ...base, text: message.text, sourceKeys: message.keys };
    case 'compaction':
      return { ...base, text: message.summary };
    case 'tool':
      return {
        ...base,
        status: message.status,
        assistantMessageId: message.assistantMessageId,
        callId: message.callId,
        name: message.name,
        output: message.output ?? null,
        ...(message.structured === undefined ? {} : { structured: message.structured }),
        ...(message.outputPath === undefined ? {} : { outputPath: message.outputPath }),
        ...(message.pruned ? { pruned: true } : {}),
        ...(message.attachments?.length ? { attachments: message.attachments } : {}),
      };
  }
}
