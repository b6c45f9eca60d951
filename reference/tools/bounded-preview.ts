/** The configured aggregate limit of one tool settlement: whichever of the two is reached first. */
export interface ToolOutputLimit {
  maxLines: number;
  maxBytes: number;
}

/** Widely deployed defaults; a host configures its own. */
export const DEFAULT_TOOL_OUTPUT_LIMIT: ToolOutputLimit = { maxLines: 2000, maxBytes: 51_200 };

const NEWLINE = 0x0a;
const NEWLINE_BYTES = Buffer.of(NEWLINE);

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
 * where possible and never inside a UTF-8 character. When the first and last lines fit together
 * with the marker, both are kept whole.
 */
export function boundedPreview(output: string, limit: ToolOutputLimit, marker: string): Buffer {
  const markerBytes = Buffer.from(marker, 'utf8');
  // Room for at least one line and one character on each side of the marker; otherwise the marker alone.
  if (limit.maxLines < 3 || limit.maxBytes < markerBytes.length + 4) {
    return markerBytes.subarray(0, charStartAtOrBefore(markerBytes, Math.min(markerBytes.length, limit.maxBytes)));
  }
  const lineBudget = limit.maxLines - 1;
  const byteBudget = limit.maxBytes - markerBytes.length - 2;
  const text = keepableEnds(output, limit.maxBytes);
  const firstLine = lineEnd(text, 0);
  const lastLine = text.length - lineStart(text, text.length);
  const headBytes =
    firstLine + lastLine <= byteBudget
      ? Math.max(firstLine, Math.min(Math.ceil(byteBudget / 2), byteBudget - lastLine))
      : Math.ceil(byteBudget / 2);
  const head = takeHead(text, Math.ceil(lineBudget / 2), headBytes);
  const tail = takeTail(text, lineBudget - head.lines, byteBudget - head.end, head.end);
  const pieces = [
    ...(head.lines > 0 ? [text.subarray(0, head.end)] : []),
    markerBytes,
    ...(tail.lines > 0 ? [text.subarray(tail.start)] : []),
  ];
  return Buffer.concat(pieces.flatMap((piece, i) => (i === 0 ? [piece] : [NEWLINE_BYTES, piece])));
}

/**
 * The bytes a preview can be made of. Head and tail each hold less than `maxBytes`, so only the
 * text's first and last `maxBytes + 1` bytes matter: a longer text is encoded as those two ends
 * joined by one line break. Every cut the preview considers then lands on the same bytes as in
 * the whole encoding, and anything reaching the join is too long to keep in either, so the
 * preview is the same while the middle is never encoded.
 */
function keepableEnds(text: string, maxBytes: number): Buffer {
  // Every UTF-16 unit is at least one byte, so `window` units hold at least `maxBytes + 1` bytes.
  const window = maxBytes + 1;
  if (text.length <= 2 * window + 1) return Buffer.from(text, 'utf8');
  // A cut between the two halves of a surrogate pair would encode neither as the whole text does.
  const headEnd = isHighSurrogate(text.charCodeAt(window - 1)) ? window + 1 : window;
  const tailStart = isLowSurrogate(text.charCodeAt(text.length - window))
    ? text.length - window - 1
    : text.length - window;
  // Encoded in place: a UTF-16 unit takes at most three bytes.
  const ends = Buffer.allocUnsafe(3 * (headEnd + text.length - tailStart) + 1);
  let length = ends.write(text.slice(0, headEnd), 'utf8');
  ends[length++] = NEWLINE;
  length += ends.write(text.slice(tailStart), length, 'utf8');
  return ends.subarray(0, length);
}

const isHighSurrogate = (unit: number) => unit >= 0xd800 && unit <= 0xdbff;
const isLowSurrogate = (unit: number) => unit >= 0xdc00 && unit <= 0xdfff;

/** Whole lines from the start while they fit; a character-safe prefix of the first line when none does. */
function takeHead(text: Buffer, maxLines: number, maxBytes: number): { end: number; lines: number } {
  let end = 0;
  let lines = 0;
  while (lines < maxLines) {
    const next = lineEnd(text, lines === 0 ? 0 : end + 1);
    if (next > maxBytes) break;
    end = next;
    lines++;
    if (end >= text.length) break;
  }
  if (lines > 0) return { end, lines };
  end = charStartAtOrBefore(text, maxBytes);
  return { end, lines: end > 0 ? 1 : 0 };
}

/** Start of the kept tail: whole lines from the end while they fit, never reaching the head. */
function takeTail(text: Buffer, maxLines: number, maxBytes: number, headEnd: number): { start: number; lines: number } {
  let start = text.length;
  let lines = 0;
  while (lines < maxLines && start > headEnd + 1) {
    const previous = lineStart(text, lines === 0 ? text.length : start - 1);
    if (text.length - previous > maxBytes || previous <= headEnd) break;
    start = previous;
    lines++;
  }
  if (lines > 0 || maxBytes <= 0) return { start, lines };
  start = charStartAtOrAfter(text, Math.max(text.length - maxBytes, headEnd + 1));
  return { start, lines: start < text.length ? 1 : 0 };
}

function lineEnd(text: Buffer, from: number): number {
  const at = text.indexOf(NEWLINE, from);
  return at < 0 ? text.length : at;
}

/** Start of the line that ends at `end` (exclusive). */
function lineStart(text: Buffer, end: number): number {
  return end === 0 ? 0 : text.lastIndexOf(NEWLINE, end - 1) + 1;
}

const continuation = (byte: number | undefined) => byte !== undefined && (byte & 0xc0) === 0x80;

function charStartAtOrBefore(text: Buffer, at: number): number {
  while (at > 0 && continuation(text[at])) at--;
  return at;
}

function charStartAtOrAfter(text: Buffer, at: number): number {
  while (at < text.length && continuation(text[at])) at++;
  return at;
}
