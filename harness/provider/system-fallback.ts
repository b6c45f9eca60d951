import type { DecodedRequest } from './captured-request.js';

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
    const text = request.messages[first]!.text;
    const { before, rest } = this.opening(text);
    if (before.length === 0) {
      // A user turn of wrapped context alone, ahead of any prompt, is baseline as a whole.
      const alone = this.unwrap(text);
      if (alone === undefined) return request;
      const messages = request.messages.filter((_, index) => index !== first);
      return { ...request, baseline: [...request.baseline, alone], messages };
    }
    const messages = [...request.messages];
    messages[first] = { ...messages[first]!, text: rest };
    return { ...request, baseline: [...request.baseline, ...before], messages };
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
    if (this.after === '' || !text.startsWith(this.before)) return 0;
    const at = text.indexOf(this.after, this.before.length);
    const end = at < 0 ? 0 : at + this.after.length;
    return end < text.length ? end : 0;
  }

  private trailing(text: string): { user: string | undefined; system: string } | undefined {
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
