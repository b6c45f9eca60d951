import type { Prompt } from '../events/session-event.js';
import type { SessionMessage } from '../history/message.js';

/** Profile `continuation`: the text of the synthetic message that lets the model go on mid-task. */
export const CONTINUE_TEXT = 'continue';

/**
 * The message injected after a compaction so the drain goes on without new user input, decided
 * from the messages as they were before the compaction: the newest user message again when the
 * model never answered it, otherwise a synthetic "continue".
 */
export function continuationFor(before: SessionMessage[]): Prompt {
  const lastUser = before.findLastIndex((m) => m.role === 'user');
  const last = before[lastUser];
  const answered = before.slice(lastUser + 1).some((m) => m.role === 'assistant');
  if (last?.role === 'user' && !answered) return last.prompt;
  return { parts: [{ type: 'text', text: CONTINUE_TEXT }] };
}
