/** The configured aggregate limit of one tool settlement: whichever of the two is reached first. */
export interface ToolOutputLimit {
  maxLines: number;
  maxBytes: number;
}

/** Widely deployed defaults; a host configures its own. */
export const DEFAULT_TOOL_OUTPUT_LIMIT: ToolOutputLimit = { maxLines: 2000, maxBytes: 51_200 };

/** Whether `text` fits the limit, measuring its UTF-8 length only when its length leaves it open. */
export function withinLimit(text: string, limit: ToolOutputLimit): boolean {
  if (utf8Length(text, limit.maxBytes) > limit.maxBytes) return false;
  // Counting stops one line past the limit, so a huge output costs no more than the limit.
  let lines = text.length === 0 ? 0 : 1;
  for (let at = text.indexOf('\n'); at >= 0 && at < text.length - 1; at = text.indexOf('\n', at + 1)) {
    if (++lines > limit.maxLines) return false;
  }
  return true;
}

/** The UTF-8 length of `text`, or any length over `maxBytes` when it is surely over. */
function utf8Length(text: string, maxBytes: number): number {
  // A UTF-16 unit encodes to one to three UTF-8 bytes.
  if (text.length > maxBytes || text.length * 3 <= maxBytes) return text.length;
  return Buffer.byteLength(text, 'utf8');
}

/**
 * Bounds text that exceeds the limit to its head and tail around one marker line, so the model
 * sees how the output began and how it ended (where errors usually are). Cuts fall on line ends
 * where possible and never inside a character. When the first and last lines fit together with
 * the marker, both are kept whole. Only the ends the limit can reach are read, never the middle,
 * and bytes are counted as UTF-8 encodes the text.
 */
export function boundedPreview(output: string, limit: ToolOutputLimit, marker: string): string {
  const markerBytes = Buffer.byteLength(marker, 'utf8');
  // Room for at least one line and one character on each side of the marker; otherwise the marker alone.
  if (limit.maxLines < 3 || limit.maxBytes < markerBytes + 4) {
    const whole = marker.toWellFormed();
    return whole.slice(0, prefixWithin(whole, limit.maxBytes).end);
  }
  const lineBudget = limit.maxLines - 1;
  const byteBudget = limit.maxBytes - markerBytes - 2;
  const firstLine = firstLineBytes(output, byteBudget);
  const lastLine = lastLineBytes(output, byteBudget);
  const headBytes =
    firstLine + lastLine <= byteBudget
      ? Math.max(firstLine, Math.min(Math.ceil(byteBudget / 2), byteBudget - lastLine))
      : Math.ceil(byteBudget / 2);
  const head = takeHead(output, Math.ceil(lineBudget / 2), headBytes);
  const tail = takeTail(output, lineBudget - head.lines, byteBudget - head.bytes, head.end);
  const pieces = [
    ...(head.lines > 0 ? [output.slice(0, head.end)] : []),
    marker,
    ...(tail.lines > 0 ? [output.slice(tail.start)] : []),
  ];
  // Joining copies the pieces, so the preview keeps no slice of a large output alive; a lone
  // surrogate becomes U+FFFD, as in UTF-8.
  return pieces.join('\n').toWellFormed();
}

/** UTF-8 bytes of `text` between two character boundaries, a lone surrogate counting as U+FFFD. */
const utf8Bytes = (text: string, start: number, end: number) => Buffer.byteLength(text.slice(start, end), 'utf8');

/** Bytes of the first line, or some count over `cap` when it is longer: a line longer in units is longer in bytes. */
function firstLineBytes(text: string, cap: number): number {
  const at = text.slice(0, cap + 1).indexOf('\n');
  const end = at < 0 ? text.length : at;
  return end > cap ? end : utf8Bytes(text, 0, end);
}

/** Bytes of the last line, or some count over `cap` when it is longer. */
function lastLineBytes(text: string, cap: number): number {
  const from = Math.max(0, text.length - cap - 1);
  const start = from + text.slice(from).lastIndexOf('\n') + 1;
  return text.length - start > cap ? text.length - start : utf8Bytes(text, start, text.length);
}

/** Whole lines from the start while they fit; a character-safe prefix of the first line when none does. */
function takeHead(text: string, maxLines: number, maxBytes: number): { end: number; bytes: number; lines: number } {
  // A line ending past `maxBytes` units ends past `maxBytes` bytes: the search goes no further.
  const window = text.slice(0, maxBytes + 1);
  const ends: number[] = [];
  for (let at = window.indexOf('\n'); ends.length < maxLines; at = window.indexOf('\n', at + 1)) {
    const end = at < 0 ? text.length : at;
    if (end > maxBytes) break;
    ends.push(end);
    if (at < 0) break;
  }
  const kept = farthestWithin(text, 0, ends, maxBytes);
  if (kept.index >= 0) return { end: ends[kept.index]!, bytes: kept.bytes, lines: kept.index + 1 };
  const prefix = prefixWithin(text, maxBytes);
  return { ...prefix, lines: prefix.end > 0 ? 1 : 0 };
}

/** Start of the kept tail: whole lines from the end while they fit, never reaching the head. */
function takeTail(text: string, maxLines: number, maxBytes: number, headEnd: number): { start: number; lines: number } {
  // A line starting more than `maxBytes` units before the end starts more than `maxBytes` bytes before it.
  const from = Math.max(headEnd, text.length - maxBytes - 1);
  // Line starts from the end on. A search forwards is quicker than one backwards, so it goes forwards
  // through ever longer stretches, each before the last, until it has lines enough.
  const starts: number[] = [];
  for (let end = text.length, size = 4096; end > from && starts.length < maxLines; size *= 2) {
    const start = Math.max(from, end - size);
    const stretch = text.slice(start, end);
    const found: number[] = [];
    for (let at = stretch.indexOf('\n'); at >= 0; at = stretch.indexOf('\n', at + 1)) found.push(start + at + 1);
    for (let i = found.length - 1; i >= 0 && starts.length < maxLines; i--) starts.push(found[i]!);
    end = start;
  }
  const kept = farthestWithin(text, text.length, starts, maxBytes);
  if (kept.index >= 0) return { start: starts[kept.index]!, lines: kept.index + 1 };
  const start = suffixWithin(text, headEnd + 1, maxBytes);
  return { start, lines: start < text.length ? 1 : 0 };
}

/**
 * The farthest of `cuts` (line boundaries, each farther from `origin` than the one before) within
 * `maxBytes` of `origin`, and its distance in bytes; index -1 when none is.
 */
function farthestWithin(
  text: string,
  origin: number,
  cuts: number[],
  maxBytes: number,
): { index: number; bytes: number } {
  let index = cuts.length - 1;
  let bytes = index < 0 ? 0 : distance(text, origin, cuts[index]!);
  while (index >= 0 && bytes > maxBytes) {
    // A UTF-16 unit takes at most three bytes, so a cut nearer by fewer than a third of the excess is still too far.
    const within = Math.abs(cuts[index]! - origin) - Math.ceil((bytes - maxBytes) / 3);
    let next = index - 1;
    while (next >= 0 && Math.abs(cuts[next]! - origin) > within) next--;
    if (next >= 0) bytes -= distance(text, cuts[next]!, cuts[index]!);
    index = next;
  }
  return { index, bytes };
}

const distance = (text: string, a: number, b: number) => utf8Bytes(text, Math.min(a, b), Math.max(a, b));

/** End of the longest prefix within `maxBytes` that splits no character, and its bytes. */
function prefixWithin(text: string, maxBytes: number): { end: number; bytes: number } {
  let end = charStartAtOrBefore(text, Math.min(text.length, maxBytes));
  let bytes = utf8Bytes(text, 0, end);
  while (bytes > maxBytes) {
    const cut = charStartAtOrBefore(text, end - Math.ceil((bytes - maxBytes) / 3));
    bytes -= utf8Bytes(text, cut, end);
    end = cut;
  }
  return { end, bytes };
}

/** Start of the longest suffix from `from` on within `maxBytes` that splits no character. */
function suffixWithin(text: string, from: number, maxBytes: number): number {
  let start = charStartAtOrAfter(text, Math.max(from, text.length - maxBytes));
  let bytes = utf8Bytes(text, start, text.length);
  while (bytes > maxBytes) {
    const cut = charStartAtOrAfter(text, start + Math.ceil((bytes - maxBytes) / 3));
    bytes -= utf8Bytes(text, start, cut);
    start = cut;
  }
  return start;
}

const isHighSurrogate = (unit: number) => unit >= 0xd800 && unit <= 0xdbff;
const isLowSurrogate = (unit: number) => unit >= 0xdc00 && unit <= 0xdfff;
/** Whether `at` falls between the two halves of a surrogate pair, inside one character. */
const insidePair = (text: string, at: number) =>
  isLowSurrogate(text.charCodeAt(at)) && isHighSurrogate(text.charCodeAt(at - 1));

function charStartAtOrBefore(text: string, at: number): number {
  return insidePair(text, at) ? at - 1 : at;
}

function charStartAtOrAfter(text: string, at: number): number {
  return insidePair(text, at) ? at + 1 : at;
}
