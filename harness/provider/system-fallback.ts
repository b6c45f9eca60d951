import type { DecodedRequest } from './captured-request.js';

const ESCAPES: [string, string][] = [
  ['&', '&amp;'],
  ['<', '&lt;'],
  ['>', '&gt;'],
];

/** One declared wrapper: what opens it (`{*}` standing for any text within a line) and what closes it. */
interface Wrapper {
  opening: RegExp;
  after: string;
}

function wrapperOf(template: string): Wrapper {
  const at = template.indexOf('{text}');
  if (at < 0) throw new Error(`the declared system message fallback "${template}" has no {text}`);
  const before = template
    .slice(0, at)
    .split('{*}')
    .map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
    .join('[^\\n]*');
  return { opening: new RegExp(`^${before}`), after: template.slice(at + '{text}'.length) };
}

/**
 * The wrapper a runtime declares (`texts["system-message.fallback"]`) for providers without a
 * chronological system role: `{text}` marks where the text goes, with & < > escaped. A runtime
 * that wraps its context in several ways declares each, joined by `{or}`.
 */
export class SystemFallback {
  private readonly wrappers: Wrapper[];

  constructor(template: string) {
    this.wrappers = template.split('{or}').map(wrapperOf);
  }

  /**
   * A user turn that carries wrapped system messages: those that open it, before the user's text
   * (`before`, in order), the user's own text (undefined when the turn holds system messages
   * alone) and the one that ends it after that text (`system`); undefined when it carries none.
   */
  split(text: string): { before: string[]; user: string | undefined; system: string | undefined } | undefined {
    const { before, rest } = this.opening(text);
    const trailing = this.trailing(rest);
    if (trailing) return { before, ...trailing };
    if (before.length === 0) return undefined;
    return { before, user: rest === '' ? undefined : rest, system: undefined };
  }

  /**
   * A request whose first user turn opens with wrapped system messages, read with those messages
   * as the end of its baseline: a runtime that lowers its baseline context (environment, date) into
   * the first user turn, to keep its system prompt a stable cache prefix, sends it there on every
   * request of the conversation, or as a user turn of its own ahead of any prompt.
   */
  lift(request: DecodedRequest): DecodedRequest {
    const first = request.messages.findIndex((message) => message.role === 'user');
    if (first < 0 || request.messages.slice(0, first).some((message) => message.role !== 'system')) return request;
    const { before, rest } = this.opening(request.messages[first]!.text);
    // A turn that holds wrapped context alone is baseline as a whole.
    const alone = this.unwrap(rest);
    if (before.length === 0 && alone === undefined) return request;
    const messages =
      alone === undefined
        ? request.messages.map((message, index) => (index === first ? { ...message, text: rest } : message))
        : request.messages.filter((_, index) => index !== first);
    return {
      ...request,
      baseline: [...request.baseline, ...before, ...(alone === undefined ? [] : [alone])],
      messages,
    };
  }

  /** The wrapped system messages that open `text`, unwrapped, and the text after them. */
  private opening(text: string): { before: string[]; rest: string } {
    const before: string[] = [];
    let rest = text;
    for (let end = this.leadingEnd(rest); end > 0; end = this.leadingEnd(rest)) {
      before.push(this.unwrap(rest.slice(0, end))!);
      rest = rest.slice(end).replace(/^\n/, '');
    }
    return { before, rest };
  }

  /**
   * Where the wrapped system message that opens `text` ends, when more text follows it; 0 when none
   * opens it (a turn that is one wrapped message reads as its closing one).
   */
  private leadingEnd(text: string): number {
    for (const { opening, after } of this.wrappers) {
      const open = opening.exec(text)?.[0];
      if (after === '' || open === undefined) continue;
      const at = text.indexOf(after, open.length);
      const end = at < 0 ? 0 : at + after.length;
      if (end > 0 && end < text.length) return end;
    }
    return 0;
  }

  /** The wrapped system message that ends `text`, starting at a line of its own, and the text before it. */
  private trailing(text: string): { user: string | undefined; system: string } | undefined {
    for (let at = text.length - 1; at >= 0; at--) {
      if (at > 0 && text[at - 1] !== '\n') continue;
      const system = this.unwrap(text.slice(at));
      if (system !== undefined) return { user: at === 0 ? undefined : text.slice(0, at - 1), system };
    }
    return undefined;
  }

  unwrap(text: string): string | undefined {
    for (const { opening, after } of this.wrappers) {
      const open = opening.exec(text)?.[0];
      if (open === undefined || !text.endsWith(after) || text.length < open.length + after.length) continue;
      const inner = text.slice(open.length, text.length - after.length);
      return [...ESCAPES].reverse().reduce((s, [raw, escaped]) => s.split(escaped).join(raw), inner);
    }
    return undefined;
  }
}
