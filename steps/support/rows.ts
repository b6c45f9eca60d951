import type { HistoryMessage } from '../../harness/protocol/protocol.js';
import type { ModelVisibleMessage } from '../../harness/provider/captured-request.js';
import type { ToolMeans } from '../../harness/means/tool-means.js';
import type { SystemFallback } from '../../harness/provider/system-fallback.js';

/** One message as the feature tables write it: a role and a short content. */
export interface Row {
  role: string;
  content: string;
}

const calls = (names: string[]) => `calls ${names.join(', ')}`;

/**
 * A request message as rows. A system message in the runtime's declared fallback wrapper reads as
 * the system message it carries, whether it is a user turn of its own, ends a user turn after the
 * user's text or opens it before that text (the fallback goes "in a user turn"), so one table fits
 * every dialect.
 */
export function requestRows(message: ModelVisibleMessage, fallback: SystemFallback | undefined): Row[] {
  if (message.toolCalls?.length)
    return [{ role: message.role, content: calls(message.toolCalls.map((call) => call.name)) }];
  const split = message.role === 'user' ? fallback?.split(message.text) : undefined;
  if (split === undefined) return [{ role: message.role, content: message.text }];
  return [
    ...split.before.map((content) => ({ role: 'system', content })),
    ...(split.user === undefined ? [] : [{ role: 'user', content: split.user }]),
    ...(split.system === undefined ? [] : [{ role: 'system', content: split.system }]),
  ];
}

export function historyRow(message: HistoryMessage): Row {
  switch (message.role) {
    case 'user':
    case 'system':
    case 'compaction':
      return { role: message.role, content: message.text };
    case 'assistant':
      return {
        role: 'assistant',
        content: message.toolCalls.length ? calls(message.toolCalls.map((call) => call.name)) : message.text,
      };
    case 'tool':
      return { role: 'tool', content: message.output ?? '' };
  }
}

/** Expected rows with the kit tools named as the runtime's tool means call them. */
export function shownRows(expected: Row[], means: ToolMeans): Row[] {
  return expected.map((row) =>
    row.content.startsWith('calls ')
      ? { ...row, content: calls(row.content.slice(6).split(', ').map(means.toolName)) }
      : row,
  );
}

/**
 * `actual` rows made comparable with `shownRows(expected)`: `*` in an expected row stands for any
 * content, and a tool result that shows the expected output by the means' measure reads as it.
 */
export function matchRows(actual: Row[], expected: Row[], means: ToolMeans): Row[] {
  return actual.map((row, i) => {
    const wanted = expected[i];
    if (wanted?.content === '*') return { ...row, content: '*' };
    if (wanted && row.role === 'tool' && wanted.role === 'tool' && means.shows(row.content, wanted.content))
      return { ...row, content: wanted.content };
    return row;
  });
}
