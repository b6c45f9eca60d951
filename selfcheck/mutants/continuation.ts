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
];
