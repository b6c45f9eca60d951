/**
 * What the fake provider answers to one request, independent of any provider dialect. The wire
 * encoders turn these values into frames; scripts never mention the wire format.
 */
export type ScriptedTurn =
  | {
      kind: 'text';
      text: string;
      chunks: number;
      /**
       * The text repeated to the length that brings the tokens this turn reports, its request's
       * and its own, to this many: a conversation of a known size whatever the runtime's own
       * instructions and tools weigh.
       */
      fillTo?: number;
      reasoning?: ScriptedReasoning;
      webSearch?: ScriptedWebSearch;
      usage?: ScriptedUsage | null;
    }
  | { kind: 'tool-calls'; calls: ScriptedToolCall[]; webSearch?: ScriptedWebSearch; usage?: ScriptedUsage | null }
  /** A refusal; `retryAfter` is sent as the `Retry-After` header when given. */
  | { kind: 'error'; status: number; body: string; retryAfter?: string }
  /** The connection is reset once the request is read: no status, no byte of an answer. */
  | { kind: 'reset' }
  | { kind: 'recording'; name: string };

export interface ScriptedToolCall {
  id: string;
  name: string;
  input: Record<string, unknown>;
  /** Sent instead of `input` encoded: input text that need not decode. */
  rawInput?: string;
  /** The pieces its JSON input streams in (2 unless given). */
  inputChunks?: number;
}

/**
 * The input of a call to a free-form (`custom`) tool, which takes text, not JSON: a scripted input
 * of one text field is sent as that text.
 */
export function freeformInput(call: ScriptedToolCall): string {
  const values = Object.values(call.input);
  return (
    call.rawInput ?? (values.length === 1 && typeof values[0] === 'string' ? values[0] : JSON.stringify(call.input))
  );
}

/**
 * A tool the provider executes itself (Anthropic's web search), streamed before the text by the
 * dialects that have one: each result carries `resultSize` characters of opaque content.
 */
export interface ScriptedWebSearch {
  id: string;
  query: string;
  results: number;
  resultSize: number;
}

/**
 * The token usage a response reports: fresh input, input read from the provider's cache, and output.
 * A turn scripted without one reports what a real provider would: about four characters a token
 * of the request it answers and of its own output, so a runtime that compacts from reported usage
 * sees the same growth a runtime that estimates for itself does. A turn scripted with `null`
 * reports none where its dialect may leave usage out (a chat-completions stream), and zeros where
 * it must report some.
 */
export interface ScriptedUsage {
  input: number;
  cacheRead: number;
  output: number;
}

/** Provider-native reasoning, streamed before the text by dialects that can replay it. */
export interface ScriptedReasoning {
  text: string;
  signature: string;
  /** The pieces its text streams in (1 unless given). */
  chunks?: number;
}

/** A turn the dialects encode into a response: every kind but a recording's fixed frames and a reset. */
export type EncodedTurn = Exclude<ScriptedTurn, { kind: 'recording' } | { kind: 'reset' }>;

/**
 * What the provider throws instead of answering a request scripted to be reset: the transport
 * breaks the connection (a TCP reset on the loopback, the network error `fetch` gives in process).
 */
export class ConnectionReset extends Error {
  constructor() {
    super('conformance kit: the connection was reset as scripted');
  }
}

/** One scripted answer, with an optional condition on the request and an optional hold. */
export interface ScriptEntry {
  turn: ScriptedTurn;
  /** Answer only a request whose latest user message has this text. */
  forUserText?: string;
  /** The answer waits until the scenario releases this name. */
  hold?: string;
  /** The hold falls inside the answer: all of it streams but its last two frames (its end). */
  holdEnd?: boolean;
  /**
   * A summary: where the provider tells summary requests from turns (`FakeProvider.summaryRequest`),
   * it answers only a summary request, and an entry without it only a turn.
   */
  summary?: boolean;
  /** Answers every later request it matches instead of one (no hold). */
  repeat?: boolean;
}

/** A response as it goes on the wire: a status, headers and the body split into frames. */
export interface WireResponse {
  status: number;
  headers: Record<string, string>;
  frames: string[];
}

/** Splits text into `parts` stream pieces (the last ones may be empty when the text is short). */
export function splitIntoChunks(text: string, parts: number): string[] {
  const size = Math.ceil(text.length / parts);
  return Array.from({ length: parts }, (_, i) => text.slice(i * size, (i + 1) * size));
}

const CHARACTERS_PER_TOKEN = 4;

/** The input tokens the provider reports for a request: its body as sent, four characters a token. */
export function reportedInputTokens(requestBody: unknown): number {
  return Math.ceil(JSON.stringify(requestBody).length / CHARACTERS_PER_TOKEN);
}

/**
 * The turn as it answers `requestBody`: filled to its size (`fillTo`), with the usage it reports,
 * its scripted usage or the estimate above.
 */
export function withReportedUsage(turn: EncodedTurn, requestBody: unknown): EncodedTurn {
  if (turn.kind === 'error') return turn;
  const tokens = (text: string) => Math.ceil(text.length / CHARACTERS_PER_TOKEN);
  const input = reportedInputTokens(requestBody);
  const filled =
    turn.kind === 'text' && turn.fillTo !== undefined
      ? { ...turn, text: repeatedTo(turn.text, Math.max(0, turn.fillTo - input) * CHARACTERS_PER_TOKEN) }
      : turn;
  if (filled.usage !== undefined) return filled;
  const output = filled.kind === 'text' ? filled.text : JSON.stringify(filled.calls.map((call) => call.input));
  return { ...filled, usage: { input, cacheRead: 0, output: tokens(output) } };
}

function repeatedTo(text: string, length: number): string {
  return text.length === 0 ? '' : text.repeat(Math.ceil(length / text.length)).slice(0, length);
}

/** A scripted refusal as it goes on the wire, the same in every dialect. */
export function errorResponse(turn: Extract<ScriptedTurn, { kind: 'error' }>): WireResponse {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (turn.retryAfter !== undefined) headers['retry-after'] = turn.retryAfter;
  return { status: turn.status, headers, frames: [turn.body] };
}
