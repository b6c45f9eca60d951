import { readJsonLines } from '../../harness/adapter/json-lines.mjs';

/**
 * Reads what pi keeps durably: one JSONL file per session, a header line then one entry per line,
 * each entry naming its parent (the file is a tree; the current branch ends at the last entry).
 * Every observation the kit makes of durable state is read from this file, never from pi's memory,
 * so what a crash loses is visible. An entry's sequence number is its position in the file.
 */
export function readEntries(file) {
  // pi writes the file only once an assistant message exists; its header entry is no event.
  return readJsonLines(file)
    .filter((entry) => entry.type !== 'session')
    .map((entry, index) => ({ ...entry, seq: index + 1 }));
}

/** The entries on the branch that ends at the last entry, root first. */
export function currentBranch(entries) {
  const byId = new Map(entries.map((entry) => [entry.id, entry]));
  const branch = [];
  for (let entry = entries.at(-1); entry; entry = entry.parentId ? byId.get(entry.parentId) : undefined)
    branch.push(entry);
  return branch.reverse();
}

/** The durable events: every entry, in file order, typed by pi's own entry type (and role). */
export function toKitEvents(entries, after = 0) {
  return entries
    .filter((entry) => entry.seq > after)
    .map((entry) => ({
      seq: entry.seq,
      type: entry.type === 'message' ? `message.${entry.message.role}` : entry.type,
      at: entry.timestamp,
    }));
}

/**
 * The session's messages as the kit projects them: the current branch's message and compaction
 * entries. A tool call is durable in its assistant entry before it runs (pi writes the assistant
 * message, then executes its calls); its result entry settles it. A call without a result entry is
 * `running`: pi records nothing else about it, not even after the process that ran it died.
 */
export function toKitHistory(entries) {
  const messages = [];
  const unsettled = new Map();
  for (const entry of currentBranch(entries)) {
    const base = { id: entry.id, seq: entry.seq };
    if (entry.type === 'compaction') {
      messages.push({ ...base, role: 'compaction', hidden: true, text: entry.summary });
      continue;
    }
    if (entry.type !== 'message') continue;
    const message = entry.message;
    switch (message.role) {
      case 'user':
        messages.push({ ...base, role: 'user', hidden: false, text: contentText(message.content) });
        break;
      case 'assistant': {
        const toolCalls = message.content
          .filter((block) => block.type === 'toolCall')
          .map((call) => ({ callId: call.id, name: call.name, input: JSON.stringify(call.arguments ?? {}) }));
        messages.push({
          ...base,
          role: 'assistant',
          hidden: false,
          status: message.stopReason === 'error' || message.stopReason === 'aborted' ? 'failed' : 'completed',
          text: contentText(message.content),
          toolCalls,
        });
        for (const call of toolCalls) {
          const tool = {
            id: `${entry.id}/${call.callId}`,
            seq: entry.seq,
            role: 'tool',
            hidden: false,
            status: 'running',
            assistantMessageId: entry.id,
            callId: call.callId,
            name: call.name,
            output: null,
          };
          messages.push(tool);
          unsettled.set(call.callId, tool);
        }
        break;
      }
      case 'toolResult': {
        const tool = unsettled.get(message.toolCallId);
        if (!tool) break;
        unsettled.delete(message.toolCallId);
        const details = message.details ?? {};
        Object.assign(tool, {
          id: entry.id,
          status: message.isError ? 'error' : 'success',
          output: contentText(message.content),
          ...(details.structured === undefined ? {} : { structured: details.structured }),
          ...(typeof details.fullOutputPath === 'string' ? { outputPath: details.fullOutputPath } : {}),
        });
        break;
      }
      default:
        // bashExecution (the user's own `!` commands) and extension messages: pi sends them as
        // user-side context; none of them arise from the kit's commands.
        break;
    }
  }
  return messages;
}

/**
 * The failures pi recorded: assistant entries that stopped with an error and ended the run. One
 * that pi recovered from (an overflow it compacted and retried, so another assistant entry follows
 * before the next user message) is part of the transcript, not a failure of the session.
 */
export function toKitFailures(entries, isContextOverflow) {
  const messages = currentBranch(entries).filter((entry) => entry.type === 'message');
  return messages
    .filter(({ message }, index) => {
      if (message.role !== 'assistant' || message.stopReason !== 'error') return false;
      const next = messages
        .slice(index + 1)
        .find((entry) => entry.message.role === 'user' || entry.message.role === 'assistant');
      return next?.message.role !== 'assistant';
    })
    .map(({ message }) => {
      const detail = message.errorMessage ?? 'the provider turn failed';
      // pi's own classification names the code: `isContextOverflow` of pi-ai (dist/utils/overflow.js),
      // the very function by which pi's AgentSession compacts and sends again on an overflow
      // (`_checkCompaction`) and never retries one (`_isRetryableError`); the detail is the provider's.
      return { code: isContextOverflow(message) ? 'context-overflow' : 'provider-error', message: detail };
    });
}

/** pi keeps only completed compactions: a compaction entry is appended once its summary exists. */
export function toKitCompactions(entries) {
  return currentBranch(entries)
    .filter((entry) => entry.type === 'compaction')
    .map((entry) => ({ status: 'completed', summary: entry.summary }));
}

function contentText(content) {
  if (typeof content === 'string') return content;
  return content
    .filter((block) => block.type === 'text')
    .map((block) => block.text)
    .join('');
}

/** The user entries pi wrote to its session file, in file order (every branch: a promotion stays one). */
export function userEntries(entries) {
  return entries.filter((entry) => entry.type === 'message' && entry.message.role === 'user');
}

/** The text pi compares a queued message with (its `_getUserMessageText`: the text blocks joined). */
export function userText(message) {
  return contentText(message.content);
}
