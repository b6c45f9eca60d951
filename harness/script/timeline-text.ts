/** Where a script's timeline lies in its text, found without parsing the text whole. */
export interface TimelineLayout {
  /** The timeline array itself, [start, end). */
  array: [number, number];
  /** Each step, as [start, end) pairs. */
  spans: Uint32Array;
  /** How deep arrays and objects nest inside the deepest step, the step itself counted. */
  deepest: number;
}

/**
 * Finds each step of a session script's timeline in its text, so that the steps can be parsed
 * one at a time instead of all at once. A value ends where its brackets balance outside strings;
 * as in `JSON.parse`, the last `timeline` of the top-level object is the one that counts. The
 * text is not checked to be JSON: `undefined` when it is not laid out as an object with a
 * timeline array, and a step that is no JSON fails to parse on its own.
 */
export function timelineLayout(text: string): TimelineLayout | undefined {
  let layout: TimelineLayout | undefined;
  let i = skipWhitespace(text, 0);
  if (text.charCodeAt(i) !== OPEN_BRACE) return undefined;
  i = skipWhitespace(text, i + 1);
  while (text.charCodeAt(i) !== CLOSE_BRACE) {
    if (text.charCodeAt(i) !== QUOTE) return undefined;
    const keyEnd = stringEnd(text, i);
    if (keyEnd < 0) return undefined;
    const key = JSON.parse(text.slice(i, keyEnd)) as string;
    i = skipWhitespace(text, keyEnd);
    if (text.charCodeAt(i) !== COLON) return undefined;
    i = skipWhitespace(text, i + 1);
    if (key === 'timeline' && text.charCodeAt(i) === OPEN_BRACKET) {
      layout = elements(text, i);
      if (!layout) return undefined;
      i = layout.array[1];
    } else {
      i = valueEnd(text, i).end;
      if (i < 0) return undefined;
    }
    i = skipWhitespace(text, i);
    if (text.charCodeAt(i) === COMMA) i = skipWhitespace(text, i + 1);
    else if (text.charCodeAt(i) !== CLOSE_BRACE) return undefined;
  }
  return layout;
}

const [QUOTE, BACKSLASH, COMMA, COLON, OPEN_BRACKET, CLOSE_BRACKET, OPEN_BRACE, CLOSE_BRACE] = [
  34, 92, 44, 58, 91, 93, 123, 125,
];

/** The array starting at `start` and each of its elements. */
function elements(text: string, start: number): TimelineLayout | undefined {
  const spans: number[] = [];
  let deepest = 0;
  let i = skipWhitespace(text, start + 1);
  while (text.charCodeAt(i) !== CLOSE_BRACKET) {
    const { end, depth } = valueEnd(text, i);
    if (end <= i) return undefined;
    spans.push(i, end);
    deepest = Math.max(deepest, depth);
    i = skipWhitespace(text, end);
    if (text.charCodeAt(i) === COMMA) i = skipWhitespace(text, i + 1);
    else if (text.charCodeAt(i) !== CLOSE_BRACKET) return undefined;
  }
  return { array: [start, i + 1], spans: Uint32Array.from(spans), deepest };
}

/** Where the value starting at `i` ends (-1 when the text ends first), and how deep it nests. */
function valueEnd(text: string, i: number): { end: number; depth: number } {
  const first = text.charCodeAt(i);
  if (first === QUOTE) return { end: stringEnd(text, i), depth: 0 };
  if (first !== OPEN_BRACE && first !== OPEN_BRACKET) {
    // A number or a literal: it runs to the next delimiter.
    while (i < text.length && !isDelimiter(text.charCodeAt(i))) i += 1;
    return { end: i, depth: 0 };
  }
  let depth = 0;
  let deepest = 0;
  for (; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === QUOTE) {
      i = stringEnd(text, i) - 1;
      if (i < 0) break;
    } else if (c === OPEN_BRACE || c === OPEN_BRACKET) deepest = Math.max(deepest, ++depth);
    else if ((c === CLOSE_BRACE || c === CLOSE_BRACKET) && --depth === 0) return { end: i + 1, depth: deepest };
  }
  return { end: -1, depth: deepest };
}

/** Where the string whose opening quote is at `i` ends, after its closing quote; -1 when the text ends first. */
function stringEnd(text: string, i: number): number {
  for (i += 1; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === BACKSLASH) i += 1;
    else if (c === QUOTE) return i + 1;
  }
  return -1;
}

function skipWhitespace(text: string, i: number): number {
  while (isWhitespace(text.charCodeAt(i))) i += 1;
  return i;
}

function isDelimiter(c: number): boolean {
  return c === COMMA || c === CLOSE_BRACE || c === CLOSE_BRACKET || isWhitespace(c);
}

function isWhitespace(c: number): boolean {
  return c === 32 || c === 10 || c === 13 || c === 9;
}
