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
 * A request message as rows. A system message in the runtime's declared fallback wrapper reads as
 * the system message it carries, whether it is a user turn of its own or ends a user turn after
 * the user's text (the fallback goes "in a user turn"), so one table fits every dialect.
 */
export function requestRows(message: ModelVisibleMessage, fallback: SystemFallback | undefined): Row[] {
  if (message.toolCalls?.length)
    return [{ role: message.role, content: calls(message.toolCalls.map((call) => call.name)) }];
  const split = message.role === 'user' ? fallback?.split(message.text) : undefined;
  if (split === undefined) return [{ role: message.role, content: message.text }];
  return [
    ...(split.user === undefined ? [] : [{ role: 'user', content: split.user }]),
    { role: 'system', content: split.system },
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

  /**
   * A user turn that carries a wrapped system message at its end: the user's own text before it
   * (undefined when the turn holds the system message alone) and the system message.
   */
  split(text: string): { user: string | undefined; system: string } | undefined {
    for (let at = text.lastIndexOf(this.before); at >= 0; at = at === 0 ? -1 : text.lastIndexOf(this.before, at - 1)) {
      if (at > 0 && text[at - 1] !== '\n') continue;
      const system = this.unwrap(text.slice(at));
      if (system !== undefined) return { user: at === 0 ? undefined : text.slice(0, at - 1), system };
    }
    return undefined;
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
