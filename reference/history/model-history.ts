import { PRUNED_TOOL_OUTPUT, type CompactionMessage, type ModelMessage, type SessionMessage } from './message.js';

/**
 * Session History as the model sees it: everything after the newest completed compaction, which
 * itself stands in as one user message. Mid-Conversation System Messages of the earlier epoch,
 * and every provider-native message before the cut, stay durable but are not sent.
 */
export function modelHistory(messages: SessionMessage[]): ModelMessage[] {
  return activeHistory(messages).map((m) => (m.role === 'tool' && m.pruned ? { ...m, output: PRUNED_TOOL_OUTPUT } : m));
}

function activeHistory(messages: SessionMessage[]): ModelMessage[] {
  const checkpoint = messages.findLast((m): m is CompactionMessage => m.role === 'compaction');
  if (!checkpoint) return messages as ModelMessage[];
  const after = messages.filter(
    (m): m is ModelMessage =>
      m.role !== 'compaction' && m.seq > checkpoint.cutSeq && !(m.role === 'system' && m.seq < checkpoint.seq),
  );
  return [checkpointMessage(checkpoint), ...after];
}

function checkpointMessage(checkpoint: CompactionMessage): ModelMessage {
  const text = `Summary of the conversation so far:\n${checkpoint.summary}\n\nRecent context:\n${checkpoint.recentContext}`;
  return { id: checkpoint.id, seq: checkpoint.seq, hidden: true, role: 'user', prompt: { parts: [{ type: 'text', text }] } };
}
