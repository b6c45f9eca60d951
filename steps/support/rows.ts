import type { HistoryMessage } from '../../harness/protocol/protocol.js';
import type { ModelVisibleMessage } from '../../harness/provider/captured-request.js';
import type { ToolMeans } from '../../harness/means/tool-means.js';

/** One message as the feature tables write it: a role and a short content. */
export interface Row {
  role: string;
  content: string;
}

const calls = (names: string[]) => `calls ${names.join(', ')}`;

/**
 * A request message as a row. A user turn that is exactly a system message in the runtime's
 * declared fallback wrapper reads as the system message it carries, so one table fits every dialect.
 */
export function requestRow(message: ModelVisibleMessage, fallback: SystemFallback | undefined): Row {
  if (message.toolCalls?.length)
    return { role: message.role, content: calls(message.toolCalls.map((call) => call.name)) };
  const unwrapped = message.role === 'user' ? fallback?.unwrap(message.text) : undefined;
  return unwrapped === undefined
    ? { role: message.role, content: message.text }
    : { role: 'system', content: unwrapped };
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

const ESCAPES: [string, string][] = [
  ['&', '&amp;'],
  ['<', '&lt;'],
  ['>', '&gt;'],
];

/**
 * The wrapper a runtime declares (`texts["system-message.fallback"]`) for providers without a
 * chronological system role: `{text}` marks where the text goes, with & < > escaped.
 */
export class SystemFallback {
  private readonly before: string;
  private readonly after: string;

  constructor(template: string) {
    const at = template.indexOf('{text}');
    if (at < 0) throw new Error(`the declared system message fallback "${template}" has no {text}`);
    this.before = template.slice(0, at);
    this.after = template.slice(at + '{text}'.length);
  }

  wrap(text: string): string {
    return this.before + ESCAPES.reduce((s, [raw, escaped]) => s.split(raw).join(escaped), text) + this.after;
  }

  unwrap(text: string): string | undefined {
    if (
      !text.startsWith(this.before) ||
      !text.endsWith(this.after) ||
      text.length < this.before.length + this.after.length
    ) {
      return undefined;
    }
    const inner = text.slice(this.before.length, text.length - this.after.length);
    return [...ESCAPES].reverse().reduce((s, [raw, escaped]) => s.split(escaped).join(raw), inner);
  }
}
