import { promptText, type Prompt } from '../events/session-event.js';
import type { SessionMessage } from '../history/message.js';

/** Profile `continuation`: the synthetic message that lets the model go on mid-task; `002` fixes its words. */
export const CONTINUE_TEXT = 'continue';
/** What marks a resumed message whose media were left behind, and what stands in when it had no text. */
export const RESUMED_PREFIX = '[Resumed after a compaction; its attachments are no longer available] ';
export const MEDIA_PLACEHOLDER = '[The last message held only attachments, which are no longer available]';

export interface Continuation {
  prompt: Prompt;
  /** It stands for a user message that had media: only the text is carried, never the media. */
  ofMedia: boolean;
}

/**
 * The message injected after a compaction so the drain goes on without new user input, decided
 * from the messages as they were before the compaction: for a newest user message with media,
 * its text alone (marked as resumed) or a placeholder; the newest user message again, its metadata
 * kept, when the model never answered it; otherwise a synthetic "continue".
 */
export function continuationFor(before: SessionMessage[]): Continuation {
  const lastUser = before.findLastIndex((m) => m.role === 'user');
  const last = before[lastUser];
  if (last?.role === 'user' && last.prompt.parts.some((part) => part.type !== 'text')) {
    const text = promptText(last.prompt);
    return {
      prompt: { parts: [{ type: 'text', text: text ? RESUMED_PREFIX + text : MEDIA_PLACEHOLDER }] },
      ofMedia: true,
    };
  }
  const answered = before.slice(lastUser + 1).some((m) => m.role === 'assistant');
  if (last?.role === 'user' && !answered) return { prompt: last.prompt, ofMedia: false };
  return { prompt: { parts: [{ type: 'text', text: CONTINUE_TEXT }] }, ofMedia: false };
}
