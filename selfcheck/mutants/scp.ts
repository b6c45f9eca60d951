import type { Mutant } from './mutant.js';

/** Compaction and message conversion of the Go session package (profile sol). */
export const scp: Mutant[] = [
  {
    name: 'the results of one assistant message travel as one tool message',
    profile: 'sol',
    file: 'provider/openai-chat.ts',
    find: '          ...request.history.flatMap(toChatMessages),',
    replace: `          ...request.history.flatMap(toChatMessages).reduce<ChatMessage[]>((out, m) => {
            const last = out.at(-1);
            if (m.role === 'tool' && last?.role === 'tool') last.content += '\\n' + m.content;
            else out.push({ ...m });
            return out;
          }, []),`,
    breaks: ['SCP-06'],
  },
  {
    name: 'a tool message sends only its first result',
    profile: 'sol',
    file: 'provider/openai-chat.ts',
    find: '          ...request.history.flatMap(toChatMessages),',
    replace: "          ...request.history.flatMap(toChatMessages).filter((m, i, all) => !(m.role === 'tool' && all[i - 1]?.role === 'tool')),",
    breaks: ['SCP-06'],
  },
];
