import type { RuntimeDescription } from '../../harness/protocol/protocol.js';

/**
 * Tool outputs sized from the limit a runtime bounds them by, for the rules that hold whatever the
 * unit or the value of the limit (what bounding keeps, where the complete text goes, what passes
 * unchanged). The limit is the one the runtime declared (`limits.toolOutput`, in lines, UTF-8
 * bytes or characters); a runtime that declared none gets the kit's own, configured.
 */
export interface ToolOutputLimit {
  maxLines?: number;
  maxBytes?: number;
  maxChars?: number;
}

/** The limit the kit configures for a runtime that declares none of its own. */
export const KIT_TOOL_OUTPUT_LIMIT = { maxLines: 10, maxBytes: 100_000 } as const;

/** Characters of the shortest numbered line, `line 1` and its line break. */
const LEAST_LINE_CHARS = 7;
/** How far past every declared limit an oversized output goes, so no marker or rounding fits it in. */
const OVER = 2;
/** The most lines an output within the limit has: few enough for every limit a runtime declares. */
const WITHIN_LINES = 10;

export function declaredToolOutputLimit(description: RuntimeDescription): ToolOutputLimit | undefined {
  return description.limits?.toolOutput;
}

export function runtimeToolOutputLimit(description: RuntimeDescription): ToolOutputLimit {
  return declaredToolOutputLimit(description) ?? KIT_TOOL_OUTPUT_LIMIT;
}

/**
 * The fewest numbered lines that pass one part of the limit twice over (whichever is reached first
 * bounds the output): the line count, or the bytes or characters (the lines are ASCII but for
 * their suffix, so a character is at least a byte). No more, so the conversation stays far from
 * any context window.
 */
export function linesOverLimit(limit: ToolOutputLimit): number {
  const byUnits = [limit.maxBytes, limit.maxChars].flatMap((units) =>
    units === undefined ? [] : [Math.ceil((OVER * units) / LEAST_LINE_CHARS)],
  );
  const byLines = limit.maxLines === undefined ? [] : [OVER * limit.maxLines];
  return Math.min(...byLines, ...byUnits);
}

/** Twice the line part of the limit, in numbered lines; without one (nothing to reach first), the other parts twice over. */
export function linesOverLineLimit(limit: ToolOutputLimit): number {
  return limit.maxLines === undefined ? linesOverLimit(limit) : OVER * limit.maxLines;
}

/** How many numbered lines (of at most 8 characters each) stay well within every part of the limit. */
export function linesWithinLimit(limit: ToolOutputLimit): number {
  const units = Math.min(limit.maxBytes ?? Number.POSITIVE_INFINITY, limit.maxChars ?? Number.POSITIVE_INFINITY);
  const lines = Math.min(WITHIN_LINES, (limit.maxLines ?? Number.POSITIVE_INFINITY) / 2, units / (4 * 8));
  return Math.max(1, Math.floor(lines));
}
