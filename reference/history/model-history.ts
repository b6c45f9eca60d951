import {
  defaultPrunedMessage,
  prunedAttachmentInfo,
  type PrunedMessage,
  type CompactionMessage,
  type ModelMessage,
  type SessionMessage,
  type ToolMessage,
} from './message.js';

/** Profile sol (`CompactionTriggerPrompt`): the user turn a compaction's summary answers. */
export const COMPACTION_TRIGGER = 'What did we do so far?';

/**
 * How a completed compaction stands in for what it folded: one user message (the core design), or
 * the question `COMPACTION_TRIGGER` answered by the summary (profile sol).
 */
export type CheckpointForm = 'summary-message' | 'trigger-answer';

/**
 * Session History as the model sees it: everything after the newest completed compaction, which
 * itself stands in as one user message. Mid-Conversation System Messages of the earlier epoch,
 * and every provider-native message before the cut, stay durable but are not sent.
 */
export function modelHistory(
  messages: SessionMessage[],
  form: CheckpointForm = 'summary-message',
  prunedMessage: PrunedMessage = defaultPrunedMessage,
): ModelMessage[] {
  return activeHistory(messages, form).map((m) =>
    m.role === 'tool' && m.pruned ? prunedForModel(m, prunedMessage) : m,
  );
}

/** A pruned result reads as the replacement of its output, then one line for each image or file it carried. */
function prunedForModel({ attachments, ...message }: ToolMessage, prunedMessage: PrunedMessage): ToolMessage {
  const replaced = (attachments ?? []).map((attachment) => prunedMessage(prunedAttachmentInfo(attachment)));
  return { ...message, output: [prunedMessage({ type: 'tool_output' }), ...replaced].join('\n') };
}

function activeHistory(messages: SessionMessage[], form: CheckpointForm): ModelMessage[] {
  const checkpoint = messages.findLast((m): m is CompactionMessage => m.role === 'compaction');
  if (!checkpoint) return messages as ModelMessage[];
  const after = messages.filter(
    (m): m is ModelMessage =>
      m.role !== 'compaction' && m.seq > checkpoint.cutSeq && !(m.role === 'system' && m.seq < checkpoint.seq),
  );
  return [...checkpointMessages(checkpoint, form), ...after];
}

function checkpointMessages(checkpoint: CompactionMessage, form: CheckpointForm): ModelMessage[] {
  const { id, seq } = checkpoint;
  const recent = `Recent context:\n${checkpoint.recentContext}`;
  if (form === 'trigger-answer') {
    return [
      { id, seq, hidden: true, role: 'user', prompt: { parts: [{ type: 'text', text: COMPACTION_TRIGGER }] } },
      {
        id,
        seq,
        hidden: true,
        role: 'assistant',
        status: 'completed',
        model: '',
        text: `${checkpoint.summary}\n\n${recent}`,
        toolCalls: [],
      },
    ];
  }
  const text = `Summary of the conversation so far:\n${checkpoint.summary}\n\n${recent}`;
  return [{ id, seq, hidden: true, role: 'user', prompt: { parts: [{ type: 'text', text }] } }];
}
