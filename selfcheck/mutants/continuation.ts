import type { Mutant } from './mutant.js';

export const continuation: Mutant[] = [
  {
    name: 'nothing is injected after a compaction',
    profile: 'continuation',
    file: 'runner/drain.ts',
    find: '    if (deps.profile.injectsContinuation()) {\n',
    replace: '    if (!deps.profile.injectsContinuation()) {\n',
    clauses: ['CON-01 (a)'],
  },
  {
    name: 'an unanswered user message is not replayed',
    profile: 'continuation',
    file: 'compaction/continuation.ts',
    find: "  if (last?.role === 'user' && !answered) return { prompt: last.prompt, ofMedia: false };\n",
    replace: '',
    clauses: ['CON-03 (a)'],
  },
  {
    name: 'a task in progress gets the last user message again',
    profile: 'continuation',
    file: 'compaction/continuation.ts',
    find: "  if (last?.role === 'user' && !answered) return { prompt: last.prompt, ofMedia: false };\n",
    replace: "  if (last?.role === 'user') return { prompt: last.prompt, ofMedia: false };\n",
    clauses: ['CON-04 (a)'],
  },
  {
    name: 'continuation messages show in the user transcript',
    profile: 'continuation',
    file: 'history/history-projection.ts',
    find: '        { ...event.prompt, continuation: true, ...(event.ofMedia ? { continuationOfMedia: true } : {}) },\n        true,',
    replace:
      '        { ...event.prompt, continuation: true, ...(event.ofMedia ? { continuationOfMedia: true } : {}) },\n        false,',
    clauses: ['CON-05 (a)'],
  },
  {
    name: 'the continuation is decided from the compacted history',
    profile: 'continuation',
    file: 'runner/drain.ts',
    find: 'continuationFor(before);',
    replace: 'continuationFor(modelHistory(deps.history.messages(session.id)));',
    clauses: ['CON-06 (a)'],
  },
  {
    name: 'a message with media is continued with its media',
    profile: 'continuation',
    file: 'compaction/continuation.ts',
    find: "  if (last?.role === 'user' && last.prompt.parts.some((part) => part.type !== 'text')) {",
    replace: "  if (last?.role === 'user' && last.prompt.parts.some((part) => part.type !== 'text') && false) {",
    clauses: ['CON-02 (c)'],
  },
  {
    name: 'continuations are not sent to the model',
    profile: 'continuation',
    file: 'history/model-history.ts',
    find: '  return activeHistory(messages, form).map((m) =>',
    replace: "  return activeHistory(messages, form).filter((m) => !(m.role === 'user' && m.continuation)).map((m) =>",
    clauses: ['CON-01 (a)', 'CON-05 (b)'],
  },
  {
    name: 'an injected message is not marked as a continuation',
    profile: 'continuation',
    file: 'history/history-projection.ts',
    find: '        { ...event.prompt, continuation: true, ...(event.ofMedia ? { continuationOfMedia: true } : {}) },',
    replace: '        { ...event.prompt, ...(event.ofMedia ? { continuationOfMedia: true } : {}) },',
    clauses: ['CON-03 (d)', 'CON-04 (b)'],
  },
  {
    name: 'the synthetic continuation asks in words of its own',
    profile: 'continuation',
    file: 'compaction/continuation.ts',
    find: "  return { prompt: { parts: [{ type: 'text', text: CONTINUE_TEXT }] }, ofMedia: false };",
    replace:
      "  return { prompt: { parts: [{ type: 'text', text: 'Continue where you left off.' }] }, ofMedia: false };",
    clauses: ['CON-04 (a)'],
  },
  {
    name: 'a resumed message with media is not marked as the resumption',
    profile: 'continuation',
    file: 'compaction/continuation.ts',
    find: 'text: text ? RESUMED_PREFIX + text : MEDIA_PLACEHOLDER',
    replace: 'text: text || MEDIA_PLACEHOLDER',
    clauses: ['CON-02 (d)'],
  },
  {
    name: 'an unanswered user message is replayed with its text trimmed',
    profile: 'continuation',
    file: 'compaction/continuation.ts',
    find: "  if (last?.role === 'user' && !answered) return { prompt: last.prompt, ofMedia: false };",
    replace:
      "  if (last?.role === 'user' && !answered) return { prompt: { parts: [{ type: 'text', text: promptText(last.prompt).trim() }] }, ofMedia: false };",
    clauses: ['CON-03 (b)'],
  },
  {
    name: 'an unanswered user message is replayed without its metadata',
    kind: 'partial comparison',
    profile: 'continuation',
    file: 'compaction/continuation.ts',
    find: "  if (last?.role === 'user' && !answered) return { prompt: last.prompt, ofMedia: false };",
    replace:
      "  if (last?.role === 'user' && !answered) return { prompt: { parts: last.prompt.parts }, ofMedia: false };",
    clauses: ['CON-03 (c)'],
  },
  {
    name: 'the continuation is decided from the folded messages without the pending input',
    profile: 'continuation',
    file: 'runner/drain.ts',
    find: 'continuationFor(before);',
    replace: 'continuationFor(compactable(before).folded);',
    clauses: ['CON-06 (a)'],
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
    clauses: ['CON-02 (b)'],
  },
  {
    // A message with a text part is resumed by its text, even when that text is empty.
    name: 'a media message whose text part is empty is resumed with the prefix, not the placeholder',
    kind: 'edge value',
    profile: 'continuation',
    file: 'compaction/continuation.ts',
    find: 'text: text ? RESUMED_PREFIX + text : MEDIA_PLACEHOLDER',
    replace: "text: last.prompt.parts.some((part) => part.type === 'text') ? RESUMED_PREFIX + text : MEDIA_PLACEHOLDER",
    clauses: ['CON-02 (b)'],
  },
  {
    name: 'the newest user message is replayed whole after a compaction, its media included',
    profile: 'continuation',
    file: 'compaction/continuation.ts',
    find: `      prompt: { parts: [{ type: 'text', text: text ? RESUMED_PREFIX + text : MEDIA_PLACEHOLDER }] },
      ofMedia: true,`,
    replace: `      prompt: last.prompt,
      ofMedia: false,`,
    clauses: ['CON-02 (a)'],
  },
  // CON-04 (c): with no user message before the compaction, the continuation is the same `continue`.
  {
    name: 'with no user message before the compaction, no continuation is injected',
    kind: 'edge value',
    profile: 'continuation',
    file: 'runner/drain.ts',
    find: '      const { prompt, ofMedia } = continuationFor(before);\n',
    replace:
      "      const { prompt, ofMedia } = continuationFor(before);\n      // Without a user message to continue from, nothing is injected.\n      if (before.some((m) => m.role === 'user'))\n",
    clauses: ['CON-04 (c)'],
  },
  {
    name: 'with no user message before the compaction, the continuation is the placeholder of a message that had only media',
    kind: 'partial comparison',
    profile: 'continuation',
    file: 'compaction/continuation.ts',
    find: "  const answered = before.slice(lastUser + 1).some((m) => m.role === 'assistant');\n",
    replace:
      "  if (lastUser < 0) return { prompt: { parts: [{ type: 'text', text: MEDIA_PLACEHOLDER }] }, ofMedia: true };\n  const answered = before.slice(lastUser + 1).some((m) => m.role === 'assistant');\n",
    clauses: ['CON-04 (c)'],
  },
  {
    // The continuation is stored, but the drain ends with the compaction: it waits for the next wake.
    name: 'the continuation waits for the next wake instead of asking the model again',
    profile: 'continuation',
    file: 'runner/drain.ts',
    find: "      const compacted = await compactBeforeTurn(deps, session, signal);\n      if (compacted === 'completed') continue;\n      return compacted;\n    }\n    const epoch",
    replace:
      "      const compacted = await compactBeforeTurn(deps, session, signal);\n      if (compacted === 'completed') return 'idle';\n      return compacted;\n    }\n    const epoch",
    clauses: ['CON-01 (b)'],
  },
];
