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
  {
    name: 'an image is sent by its source instead of its bytes',
    profile: 'sol',
    file: 'provider/openai-chat.ts',
    find: "image_url: { url: `data:${part.mediaType};base64,${part.data}` }",
    replace: "image_url: { url: part.source ?? `data:${part.mediaType};base64,${part.data}` }",
    breaks: ['SCP-05'],
  },
  {
    name: 'an image block carries its attachment metadata along',
    profile: 'sol',
    file: 'provider/anthropic-messages.ts',
    find: "            : { type: 'image', source: { type: 'base64', media_type: part.mediaType, data: part.data } },",
    replace: "            : { type: 'image', source: { type: 'base64', media_type: part.mediaType, data: part.data }, ...(part.source ? { title: part.source } : {}) } as ContentBlock,",
    breaks: ['SCP-05'],
  },
  {
    name: 'automatic compaction is off unless turned on',
    profile: 'sol',
    file: 'runner/drain.ts',
    find: '  if (deps.sol && deps.budget().auto === false) return false;',
    replace: '  if (deps.sol && !deps.budget().auto) return false;',
    breaks: ['SCP-04'],
  },
  {
    name: 'turning automatic compaction off is ignored',
    profile: 'sol',
    file: 'runner/drain.ts',
    find: '  if (deps.sol && deps.budget().auto === false) return false;\n',
    replace: '',
    breaks: ['SCP-04'],
  },
  {
    name: 'turning pruning off is ignored',
    profile: 'sol',
    file: 'runner/drain.ts',
    find: '    if (deps.sol && deps.budget().prune !== false) prune(deps, sessionId);',
    replace: '    if (deps.sol) prune(deps, sessionId);',
    breaks: ['SCP-04'],
  },
  {
    name: 'pruning is off unless turned on',
    profile: 'sol',
    file: 'runner/drain.ts',
    find: '    if (deps.sol && deps.budget().prune !== false) prune(deps, sessionId);',
    replace: '    if (deps.sol && deps.budget().prune === true) prune(deps, sessionId);',
    breaks: ['SCP-04'],
  },
];
