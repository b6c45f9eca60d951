import type { SessionMessage } from '../history/message.js';
import type { InboxRow } from '../inbox/inbox.js';
import { promptText, type Prompt, type StoredEvent } from '../events/session-event.js';

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
        ...attachmentsOf(message.prompt),
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

/** A prompt's images and files as the history shows them: no bytes, each with its name and source. */
function attachmentsOf(prompt: Prompt) {
  const attachments = prompt.parts.flatMap((part) =>
    part.type === 'text'
      ? []
      : [
          {
            mediaType: part.mediaType,
            ...(part.type === 'file' && part.filename !== undefined ? { filename: part.filename } : {}),
            ...(part.source !== undefined ? { source: part.source } : {}),
          },
        ],
  );
  return attachments.length > 0 ? { attachments } : {};
}
