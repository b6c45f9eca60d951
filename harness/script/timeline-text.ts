/**
 * Where each step of a session script's timeline lies in the script's text, as [start, end) pairs,
 * so that the steps can be parsed one at a time as they are played instead of held all at once.
 * The text has parsed as JSON, so a value ends where its brackets balance outside strings; as in
 * `JSON.parse`, the last `timeline` of the top-level object is the one that counts.
 */
export function timelineSpans(text: string): Uint32Array {
  let spans: number[] | undefined;
  let i = skipWhitespace(text, skipWhitespace(text, 0) + 1);
  while (text.charCodeAt(i) !== CLOSE_BRACE) {
    const keyEnd = stringEnd(text, i);
    const key = JSON.parse(text.slice(i, keyEnd)) as string;
    i = skipWhitespace(text, skipWhitespace(text, keyEnd) + 1);
    if (key === 'timeline') {
      spans = [];
      i = elementSpans(text, i, spans);
    } else i = valueEnd(text, i);
    i = skipWhitespace(text, i);
    if (text.charCodeAt(i) === COMMA) i = skipWhitespace(text, i + 1);
  }
  if (!spans) throw new Error('the script has no timeline');
  return Uint32Array.from(spans);
}

const [QUOTE, BACKSLASH, COMMA, OPEN_BRACKET, CLOSE_BRACKET, OPEN_BRACE, CLOSE_BRACE] = [34, 92, 44, 91, 93, 123, 125];

/** Records the span of each element of the array at `i` and returns where the array ends. */
function elementSpans(text: string, i: number, spans: number[]): number {
  i = skipWhitespace(text, i + 1);
  while (text.charCodeAt(i) !== CLOSE_BRACKET) {
    const end = valueEnd(text, i);
    spans.push(i, end);
    i = skipWhitespace(text, end);
    if (text.charCodeAt(i) === COMMA) i = skipWhitespace(text, i + 1);
  }
  return i + 1;
}

/** Where the value starting at `i` ends. */
function valueEnd(text: string, i: number): number {
  const first = text.charCodeAt(i);
  if (first === QUOTE) return stringEnd(text, i);
  if (first !== OPEN_BRACE && first !== OPEN_BRACKET) {
    // A number or a literal: it runs to the next delimiter.
    for (
      let c = first;
      i < text.length && !(c === COMMA || c === CLOSE_BRACE || c === CLOSE_BRACKET || isWhitespace(c));
    ) {
      c = text.charCodeAt(++i);
    }
    return i;
  }
  let depth = 0;
  for (; ; i++) {
    const c = text.charCodeAt(i);
    if (c === QUOTE) i = stringEnd(text, i) - 1;
    else if (c === OPEN_BRACE || c === OPEN_BRACKET) depth += 1;
    else if ((c === CLOSE_BRACE || c === CLOSE_BRACKET) && --depth === 0) return i + 1;
  }
}

/** Where the string whose opening quote is at `i` ends, after its closing quote. */
function stringEnd(text: string, i: number): number {
  for (i += 1; ; i++) {
    const c = text.charCodeAt(i);
    if (c === BACKSLASH) i += 1;
    else if (c === QUOTE) return i + 1;
  }
}

function skipWhitespace(text: string, i: number): number {
  while (isWhitespace(text.charCodeAt(i))) i += 1;
  return i;
}

function isWhitespace(c: number): boolean {
  return c === 32 || c === 10 || c === 13 || c === 9;
}
