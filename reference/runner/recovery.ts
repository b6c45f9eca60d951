import type { EventLog } from '../store/event-log.js';
import type { HistoryStore } from '../history/history-store.js';
import type { SessionEvent } from '../events/session-event.js';
import { INTERRUPTED_TOOL_OUTPUT } from '../history/message.js';

/**
 * Work still projected as running when a drain starts was left by a process that died: no drain
 * of this session is active here. It is failed durably, never re-executed, because its side
 * effects may already have happened.
 */
export function failAbandonedWork(log: EventLog, history: HistoryStore, sessionId: string): void {
  const events: SessionEvent[] = [];
  for (const message of history.messages(sessionId)) {
    if (message.role === 'tool' && message.status === 'running') {
      events.push({
        type: 'tool.settled',
        assistantMessageId: message.assistantMessageId,
        callId: message.callId,
        status: 'interrupted',
        output: INTERRUPTED_TOOL_OUTPUT,
      });
    }
    if (message.role === 'assistant' && message.status === 'streaming') {
      events.push({
        type: 'assistant.failed',
        messageId: message.id,
        text: message.text,
        reason: 'interrupted',
        message: 'Provider turn interrupted by a process exit',
      });
    }
  }
  if (events.length > 0) log.append(sessionId, events);
}
