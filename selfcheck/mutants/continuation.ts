import type { Mutant } from './mutant.js';

export const continuation: Mutant[] = [
  {
    name: 'nothing is injected after a compaction',
    profile: 'continuation',
    file: 'runner/drain.ts',
    find: '    if (deps.profile.injectsContinuation()) {\n',
    replace: '    if (!deps.profile.injectsContinuation()) {\n',
    breaks: ['CON-01'],
  },
  {
    name: 'an unanswered user message is not replayed',
    profile: 'continuation',
    file: 'compaction/continuation.ts',
    find: "  if (last?.role === 'user' && !answered) return { prompt: last.prompt, ofMedia: false };\n",
    replace: '',
    breaks: ['CON-03'],
  },
  {
    name: 'a task in progress gets the last user message again',
    profile: 'continuation',
    file: 'compaction/continuation.ts',
    find: "  if (last?.role === 'user' && !answered) return { prompt: last.prompt, ofMedia: false };\n",
    replace: "  if (last?.role === 'user') return { prompt: last.prompt, ofMedia: false };\n",
    breaks: ['CON-04'],
  },
  {
    name: 'continuation messages show in the user transcript',
    profile: 'continuation',
    file: 'history/history-projection.ts',
    find: '        { ...event.prompt, continuation: true, ...(event.ofMedia ? { continuationOfMedia: true } : {}) },\n        true,',
    replace:
      '        { ...event.prompt, continuation: true, ...(event.ofMedia ? { continuationOfMedia: true } : {}) },\n        false,',
    breaks: ['CON-05'],
  },
  {
    name: 'the continuation is decided from the compacted history',
    profile: 'continuation',
    file: 'runner/drain.ts',
    find: 'continuationFor(before);',
    replace: 'continuationFor(modelHistory(deps.history.messages(session.id)));',
    breaks: ['CON-06'],
  },
  {
    name: 'a message with media is continued with its media',
    profile: 'continuation',
    file: 'compaction/continuation.ts',
    find: "  if (last?.role === 'user' && last.prompt.parts.some((part) => part.type !== 'text')) {",
    replace: "  if (last?.role === 'user' && last.prompt.parts.some((part) => part.type !== 'text') && false) {",
    breaks: ['CON-02'],
  },
  {
    name: 'continuations are not sent to the model',
    profile: 'continuation',
    file: 'history/model-history.ts',
    find: '  return activeHistory(messages, form).map((m) =>',
    replace: "  return activeHistory(messages, form).filter((m) => !(m.role === 'user' && m.continuation)).map((m) =>",
    breaks: ['CON-01', 'CON-05'],
  },
  {
    name: 'an injected message is not marked as a continuation',
    profile: 'continuation',
    file: 'history/history-projection.ts',
    find: '        { ...event.prompt, continuation: true, ...(event.ofMedia ? { continuationOfMedia: true } : {}) },',
    replace: '        { ...event.prompt, ...(event.ofMedia ? { continuationOfMedia: true } : {}) },',
    breaks: ['CON-03', 'CON-04'],
  },
  {
    name: 'the synthetic continuation asks in words of its own',
    profile: 'continuation',
    file: 'compaction/continuation.ts',
    find: "  return { prompt: { parts: [{ type: 'text', text: CONTINUE_TEXT }] }, ofMedia: false };",
    replace:
      "  return { prompt: { parts: [{ type: 'text', text: 'Continue where you left off.' }] }, ofMedia: false };",
    breaks: ['CON-04'],
  },
  {
    name: 'a resumed message with media is not marked as the resumption',
    profile: 'continuation',
    file: 'compaction/continuation.ts',
    find: 'text: text ? RESUMED_PREFIX + text : MEDIA_PLACEHOLDER',
    replace: 'text: text || MEDIA_PLACEHOLDER',
    breaks: ['CON-02'],
  },
  {
    name: 'an unanswered user message is replayed with its text trimmed',
    profile: 'continuation',
    file: 'compaction/continuation.ts',
    find: "  if (last?.role === 'user' && !answered) return { prompt: last.prompt, ofMedia: false };",
    replace:
      "  if (last?.role === 'user' && !answered) return { prompt: { parts: [{ type: 'text', text: promptText(last.prompt).trim() }] }, ofMedia: false };",
    breaks: ['CON-03'],
  },
  {
    name: 'an unanswered user message is replayed without its metadata',
    kind: 'partial comparison',
    profile: 'continuation',
    file: 'compaction/continuation.ts',
    find: "  if (last?.role === 'user' && !answered) return { prompt: last.prompt, ofMedia: false };",
    replace:
      "  if (last?.role === 'user' && !answered) return { prompt: { parts: last.prompt.parts }, ofMedia: false };",
    breaks: ['CON-03'],
  },
  {
    name: 'the continuation is decided from the folded messages without the pending input',
    profile: 'continuation',
    file: 'runner/drain.ts',
    find: 'continuationFor(before);',
    replace: 'continuationFor(compactable(before).folded);',
    breaks: ['CON-06'],
  },
  {
    // The promoted user message is rebuilt from the prompt's text: its attachments stay behind.
    name: 'promotion keeps the text of a prompt and drops its attachments',
    kind: 'partial comparison',
    profile: 'continuation',
    file: 'inbox/inbox-projection.ts',
    find: "      insertMessage(db, sessionId, seq, event.messageId, 'user', 'completed', JSON.parse(row.prompt));",
    replace:
      "      const prompt = JSON.parse(row.prompt);\n      insertMessage(db, sessionId, seq, event.messageId, 'user', 'completed', { ...prompt, parts: prompt.parts.filter((part: { type: string }) => part.type === 'text') });",
    breaks: ['CON-02'],
  },
  {
    // A message with a text part is resumed by its text, even when that text is empty.
    name: 'a media message whose text part is empty is resumed with the prefix, not the placeholder',
    kind: 'edge value',
    profile: 'continuation',
    file: 'compaction/continuation.ts',
    find: 'text: text ? RESUMED_PREFIX + text : MEDIA_PLACEHOLDER',
    replace: "text: last.prompt.parts.some((part) => part.type === 'text') ? RESUMED_PREFIX + text : MEDIA_PLACEHOLDER",
    breaks: ['CON-02'],
  },
];
