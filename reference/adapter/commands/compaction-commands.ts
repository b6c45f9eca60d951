import type { PrunedMessage } from '../../history/message.js';
import type { CommandTable } from '../command.js';
import type { RuntimeHost } from '../runtime-host.js';

/** The compaction budget, a compaction the user asks for, and the compactions that happened. */
export function compactionCommands({ runtime }: RuntimeHost): CommandTable {
  return {
    'compaction.configure': (c) =>
      runtime.configureCompaction({
        contextWindow: Number(c.contextWindow),
        outputAllowance: Number(c.outputAllowance),
        buffer: Number(c.buffer),
        ...(c.modelWindows ? { modelWindows: c.modelWindows as Record<string, number> } : {}),
        ...(typeof c.auto === 'boolean' ? { auto: c.auto } : {}),
        ...(typeof c.prune === 'boolean' ? { prune: c.prune } : {}),
        ...(typeof c.model === 'string' ? { model: c.model } : {}),
        ...(typeof c.prunedMessage === 'string' ? { prunedMessage: prunedMessageOf(c.prunedMessage) } : {}),
      }),
    'compaction.request': (c) => runtime.requestCompaction(String(c.sessionId)),
    compactions: (c) => ({
      compactions: runtime.compactions(String(c.sessionId)).map(({ status, summary, tokensFreed }) => ({
        status,
        ...(summary === undefined ? {} : { summary }),
        ...(tokensFreed === undefined ? {} : { tokensFreed }),
      })),
    }),
  };
}

/** The kit words a replacement text as a template: `{type}`, `{mimeType}` and `{filename}` stand for what was removed. */
function prunedMessageOf(template: string): PrunedMessage {
  return (info) =>
    template
      .replaceAll('{type}', info.type)
      .replaceAll('{mimeType}', info.mimeType ?? '')
      .replaceAll('{filename}', info.filename ?? '');
}
