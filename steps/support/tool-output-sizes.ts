import type { RuntimeDescription } from '../../harness/protocol/protocol.js';

/**
 * Tool outputs sized from the limit a runtime bounds them by, for the rules that hold whatever the
 * unit or the value of the limit (what bounding keeps, where the complete text goes, what passes
 * unchanged): the one it declared (`limits.toolOutput`, in lines, UTF-8 bytes or characters).
 */
export interface ToolOutputLimit {
  maxLines?: number;
  maxBytes?: number;
  maxChars?: number;
}

/** Characters of the shortest numbered line, `line 1` and its line break. */
const LEAST_LINE_CHARS = 7;
/**
 * How far past each part of the limit an oversized output goes: twice the lines, a quarter more
 * bytes or characters (enough that no rounding fits it in, and little enough that two such outputs
 * in one conversation stay within a runtime's default context window).
 */
const OVER_LINES = 2;
const OVER_UNITS = 1.25;
/** The most lines an output within the limit has: few enough for every limit a runtime declares. */
const WITHIN_LINES = 10;

export function declaredToolOutputLimit(description: RuntimeDescription): ToolOutputLimit | undefined {
  return description.limits?.toolOutput;
}

export function runtimeToolOutputLimit(description: RuntimeDescription): ToolOutputLimit {
  const limit = declaredToolOutputLimit(description);
  if (!limit) throw new Error('the runtime declared no tool output limit of its own (limits.toolOutput)');
  return limit;
}

/**
 * How many numbered lines pass every part of the limit: the line count, and the bytes or characters
 * (the lines are ASCII but for their suffix, so a character is at least a byte). Whatever part a
 * runtime counts, and even where it ignores one, the output is over its limit.
 */
export function linesOverLimit(limit: ToolOutputLimit): number {
  const units = Math.max(limit.maxBytes ?? 0, limit.maxChars ?? 0);
  return Math.max(OVER_LINES * (limit.maxLines ?? 0), Math.ceil((OVER_UNITS * units) / LEAST_LINE_CHARS));
}

/** Twice the line part of the limit, in numbered lines; without one (nothing to reach first), every other part passed. */
export function linesOverLineLimit(limit: ToolOutputLimit): number {
  return limit.maxLines === undefined ? linesOverLimit(limit) : OVER_LINES * limit.maxLines;
}

/** How many numbered lines (of at most 8 characters each) stay well within every part of the limit. */
export function linesWithinLimit(limit: ToolOutputLimit): number {
  const units = Math.min(limit.maxBytes ?? Number.POSITIVE_INFINITY, limit.maxChars ?? Number.POSITIVE_INFINITY);
  const lines = Math.min(WITHIN_LINES, (limit.maxLines ?? Number.POSITIVE_INFINITY) / 2, units / (4 * 8));
  return Math.max(1, Math.floor(lines));
}

/**
 * A shell's output reaches a runtime through a pipe of 64 KiB: a command cannot end before the
 * runtime read all but its last pipe-full, and a runtime reads (and handles) one before it reads
 * the next. Over three pipe-fulls, a command that ends has had its first output handled.
 */
const PIPE_BYTES = 65_536;
const HANDLED_BEFORE_THE_END = 3 * PIPE_BYTES;

/** Numbered lines over every part of the limit, and over three pipe-fulls of output. */
export function linesOverLimitAndPipe(limit: ToolOutputLimit): number {
  return Math.max(linesOverLimit(limit), Math.ceil(HANDLED_BEFORE_THE_END / LEAST_LINE_CHARS));
}

/** Whether `lines` of text, each with its line break, pass any part of `limit`. */
export function passesLimit(lines: string[], limit: ToolOutputLimit): boolean {
  const bytes = lines.reduce((sum, line) => sum + Buffer.byteLength(line) + 1, 0);
  const chars = lines.reduce((sum, line) => sum + line.length + 1, 0);
  return (
    lines.length > (limit.maxLines ?? Number.POSITIVE_INFINITY) ||
    bytes > (limit.maxBytes ?? Number.POSITIVE_INFINITY) ||
    chars > (limit.maxChars ?? Number.POSITIVE_INFINITY)
  );
}
