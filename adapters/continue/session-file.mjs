import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Reads what Continue keeps durably of a session: `<global dir>/sessions/<id>.json`, which it
 * rewrites whole on every change of the history (`HistoryManager.save`, core/util/history.ts):
 * a user message when it is taken from the queue, an assistant message once its stream ends, each
 * tool call's status and output inside the assistant item that made it, a compaction's summary.
 * System messages are dropped on save. Every observation the kit makes of durable state is read
 * from this file, never from the process.
 */
export const sessionFile = (globalDir, id) => join(globalDir, 'sessions', `${id}.json`);

/**
 * The file's history items, each with `seq`, its position (from 1), and `at`, the time the file
 * was last written: Continue keeps no time per item. A file not written yet (Continue writes none
 * while a session holds only its system message) has none. Continue rewrites the file in place,
 * so a read while it writes may see part of it: read again until the write is whole (within a
 * second, `TORN_READS_AT_MOST`), as a running call's output is rewritten on every chunk.
 */
export function readItems(file) {
  const session = readWhole(file);
  if (!session) return [];
  const at = statSync(file).mtime.toISOString();
  return (session.history ?? []).map((item, i) => ({ ...item, seq: i + 1, at }));
}

const TORN_READS_AT_MOST = 200;
const TORN_READ_PAUSE_MS = 5;
const pause = new Int32Array(new SharedArrayBuffer(4));

function readWhole(file) {
  for (let read = 1; ; read++) {
    try {
      return JSON.parse(readFileSync(file, 'utf8'));
    } catch (error) {
      if (error.code === 'ENOENT') return undefined;
      if (!(error instanceof SyntaxError) || read >= TORN_READS_AT_MOST) throw error;
      // The writer is in the middle of its write: it ends in milliseconds.
      Atomics.wait(pause, 0, 0, TORN_READ_PAUSE_MS);
    }
  }
}

const textOf = (content) =>
  typeof content === 'string'
    ? content
    : Array.isArray(content)
      ? content
          .filter((part) => part?.type === 'text')
          .map((part) => part.text)
          .join('')
      : '';

/**
 * A turn that failed: Continue ends it with an assistant message of its own, `Error: <message>`,
 * without the usage a provider's answer carries (`processMessages`, src/commands/serve.ts).
 */
const isFailure = (item) =>
  item.message.role === 'assistant' &&
  !item.message.usage &&
  !item.message.toolCalls?.length &&
  textOf(item.message.content).startsWith('Error: ');

const TOOL_STATUS = { done: 'success', errored: 'error', canceled: 'interrupted' };

/**
 * The session's messages: user prompts, the model's answers with their tool calls, each call's
 * state as a tool message (its output as Continue sends it back, the output parts joined by line
 * breaks: `convertFromUnifiedHistory`, core/util/messageConversion.ts), and a compaction's summary
 * as its hidden checkpoint. A call still `generated` or `calling` is running; while it runs, Bash
 * writes the output it has so far into the file as the call's output, whole, on every chunk
 * (`showCurrentOutput`, src/tools/runTerminalCommand.ts; `addToolResult(..., "calling")`,
 * src/services/ChatHistoryService.ts), and the history shows what the file holds: null only where
 * no output is written yet.
 */
export function toKitHistory(items) {
  const messages = [];
  for (const item of items) {
    const { message } = item;
    const base = { id: `item-${item.seq}`, seq: item.seq };
    if (item.conversationSummary !== undefined) {
      messages.push({ ...base, role: 'compaction', hidden: true, text: item.conversationSummary });
      continue;
    }
    if (message.role === 'user') {
      messages.push({ ...base, role: 'user', hidden: false, text: textOf(message.content) });
      continue;
    }
    if (message.role !== 'assistant') continue;
    const toolCalls = (message.toolCalls ?? []).map(({ id, function: called }) => ({
      callId: id,
      name: called.name,
      input: called.arguments,
    }));
    const status = isFailure(item) ? 'failed' : 'completed';
    messages.push({ ...base, role: 'assistant', hidden: false, status, text: textOf(message.content), toolCalls });
    for (const state of item.toolCallStates ?? []) {
      const settlement = TOOL_STATUS[state.status] ?? 'running';
      messages.push({
        id: `${base.id}/${state.toolCallId}`,
        seq: item.seq,
        role: 'tool',
        hidden: false,
        status: settlement,
        assistantMessageId: base.id,
        callId: state.toolCallId,
        name: state.toolCall?.function?.name ?? '',
        output: state.output?.length
          ? state.output.map((part) => part.content).join('\n')
          : settlement === 'running'
            ? null
            : 'Tool cancelled',
      });
    }
  }
  return messages;
}

/**
 * Turns Continue ended with its error message. It tells a context overflow of its own (the input
 * does not fit even after pruning, `validateContextLength`, src/util/tokenizer.ts; a compaction
 * that did not make room) by its words; any provider's refusal is a provider error.
 */
export function toKitFailures(items) {
  return items.filter(isFailure).map((item) => {
    const message = textOf(item.message.content).slice('Error: '.length);
    return { code: /context (length|limit)/i.test(message) ? 'context-overflow' : 'provider-error', message };
  });
}

/** Continue's compactions: each leaves the history as the summary alone, an assistant item with `conversationSummary`. */
export function toKitCompactions(items) {
  return items
    .filter((item) => item.conversationSummary !== undefined)
    .map((item) => ({ status: 'completed', summary: item.conversationSummary }));
}

/** The durable events: one per history item, in the file's order, typed by its role. */
export function toKitEvents(items, after = 0) {
  return items
    .filter((item) => item.seq > after)
    .map((item) => ({ seq: item.seq, type: `history.${item.message.role}`, at: item.at }));
}
