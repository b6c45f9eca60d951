import { isImage, type SessionMessage, type ToolMessage } from '../history/message.js';

/** Profile `sol`: the newest tool outputs worth this many tokens stay whole. */
export const PRUNE_PROTECT = 40_000;
/** A pruning that frees no more than this many tokens is not worth it. */
export const PRUNE_MINIMUM = 20_000;
/** Tools whose outputs are never pruned. */
const PROTECTED_TOOLS = new Set(['skill']);

/** What an image and any other file weigh when pruning, whatever their size (`004`: ImageTokenEstimate, FileTokenEstimate). */
export const IMAGE_TOKENS = 1500;
export const FILE_TOKENS = 1000;

/** Profile `sol`'s token estimate: a token per four characters, rounded up. */
export function solTokenEstimate(text: string): number {
  return Math.ceil(text.length / 4);
}

/** A tool result's weight when pruning: its text, and each image or file it carries at its fixed estimate. */
function resultTokens(message: ToolMessage): number {
  const attachments = (message.attachments ?? []).map((attachment) =>
    isImage(attachment) ? IMAGE_TOKENS : FILE_TOKENS,
  );
  return attachments.reduce((sum, tokens) => sum + tokens, solTokenEstimate(message.output ?? ''));
}

/**
 * The tool messages whose outputs to prune: walking back from the newest message, past the last
 * two user turns, the completed outputs beyond the newest PRUNE_PROTECT tokens of them. The walk
 * stops at a compaction summary or at an output pruned before.
 */
export function prunableOutputs(messages: SessionMessage[]): string[] {
  let users = 0;
  let seen = 0;
  let freed = 0;
  const pruned: string[] = [];
  for (const message of [...messages].reverse()) {
    if (message.role === 'compaction') break;
    if (message.role === 'user') users += 1;
    if (users < 2 || message.role !== 'tool' || message.status !== 'success' || PROTECTED_TOOLS.has(message.name))
      continue;
    if (message.pruned) break;
    const tokens = resultTokens(message);
    seen += tokens;
    if (seen <= PRUNE_PROTECT) continue;
    pruned.push(message.id);
    freed += tokens;
  }
  return freed > PRUNE_MINIMUM ? pruned : [];
}
