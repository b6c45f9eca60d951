import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { readJsonLines } from '../../harness/adapter/json-lines.mjs';

/**
 * Reads what Gemini CLI keeps durably of a session: its chat file, JSONL under
 * `<home>/.gemini/tmp/<project>/chats/session-<time>-<first 8 of the UUID>.jsonl`. Its first line
 * is the session's metadata (sessionId, projectHash), then each message record (an `id`) is
 * appended when it is made and appended again, whole, each time it changes (its tokens, its tool
 * calls' results); `{"$set": {...}}` lines update the metadata (a `messages` array replaces every
 * message, as a compression does), `{"$rewindTo": id}` drops a message and all after it. Every
 * observation the kit makes of durable state is read from this file, never from the process.
 */
export function findChatFile(runtimeDir, uuid) {
  const tmp = join(runtimeDir, 'tmp');
  if (!uuid || !existsSync(tmp)) return undefined;
  const short = `-${uuid.slice(0, 8)}.jsonl`;
  const files = [];
  for (const project of readdirSync(tmp)) {
    const chats = join(tmp, project, 'chats');
    if (!existsSync(chats)) continue;
    for (const name of readdirSync(chats).sort())
      if (name.startsWith('session-') && name.endsWith(short)) {
        const file = join(chats, name);
        const lines = readJsonLines(file);
        if (lines[0]?.sessionId === uuid) files.push({ file, resumable: resumable(lines) });
      }
  }
  // `session/load` starts a recording of its own, filed under the minute of the load, before it
  // resumes the chat in its first file: a load in a later minute leaves a second file of the
  // session holding the opening context alone. The chat is the file Gemini CLI resumes, the one
  // with a prompt or an answer in it (`getSessionFiles` lists no other), else the earliest.
  return (files.find((found) => found.resumable) ?? files[0])?.file;
}

/** The file's lines, each with `seq`, its position among them. */
export function readRecords(file) {
  return file ? readJsonLines(file) : [];
}

/** The messages the file holds at its end, each with the `seq` of the line that last wrote it. */
export function currentMessages(records) {
  let messages = new Map();
  for (const record of records) {
    if (typeof record.$rewindTo === 'string') {
      const ids = [...messages.keys()];
      const at = ids.indexOf(record.$rewindTo);
      for (const id of at === -1 ? ids : ids.slice(at)) messages.delete(id);
    } else if (typeof record.id === 'string') {
      messages.set(record.id, record);
    } else if (record.$set && Array.isArray(record.$set.messages)) {
      messages = new Map(record.$set.messages.map((message) => [message.id, { ...message, seq: record.seq }]));
    }
  }
  return [...messages.values()];
}

/**
 * Whether Gemini CLI would resume the chat: it lists (and `session/load` finds) only a chat with a
 * prompt or an answer in it, not one holding only its opening context (`isResumableMessageRecord`).
 */
export function resumable(records) {
  return currentMessages(records).some((record) =>
    record.type === 'user'
      ? !textOf(record.content).trim().startsWith('<session_context>')
      : record.type === 'gemini' &&
        (textOf(record.content).trim() !== '' ||
          (record.toolCalls?.length ?? 0) > 0 ||
          (record.thoughts?.length ?? 0) > 0),
  );
}

/**
 * The durable events: every line in file order, typed by what it records, each at the time it
 * carries (a message's timestamp, the metadata's last update) or else at the time of the line before.
 */
export function toKitEvents(records, after = 0) {
  let at;
  const events = [];
  for (const record of records) {
    at = record.timestamp ?? record.$set?.lastUpdated ?? record.lastUpdated ?? record.startTime ?? at;
    if (record.seq <= after) continue;
    events.push({
      seq: record.seq,
      type:
        typeof record.id === 'string'
          ? `message.${record.type}`
          : typeof record.$rewindTo === 'string'
            ? 'rewind'
            : record.$set
              ? `set.${Object.keys(record.$set).sort().join('+')}`
              : 'session',
      at: at ?? new Date(0).toISOString(),
    });
  }
  return events;
}

/**
 * The model's own ID of a call: Gemini CLI files a call under `<tool name>__<the model's ID>`
 * (its stable tool IDs), or under an ID of its own when the model gave none.
 */
const modelCallId = (call) =>
  typeof call.id === 'string' && call.id.startsWith(`${call.name}__`) ? call.id.slice(call.name.length + 2) : call.id;

const textOf = (content) => {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content
    .filter((part) => typeof part?.text === 'string' && !part.thought)
    .map((part) => part.text)
    .join('');
};

function responseText(result) {
  const response = (Array.isArray(result) ? result : [])
    .map((part) => part?.functionResponse?.response)
    .find((value) => value !== undefined);
  if (response === undefined || response === null) return '';
  if (typeof response.output === 'string') return response.output;
  if (typeof response.error === 'string') return response.error;
  if (typeof response === 'string') return response;
  return JSON.stringify(response);
}

/**
 * The session's messages: user prompts, the model's answers with their tool calls, and each call's
 * result as a tool message (Gemini CLI keeps a call's result, status and display inside the model
 * message that made it). A call without a result is `running`.
 */
export function toKitHistory(records) {
  const messages = [];
  const current = currentMessages(records);
  for (const [i, record] of current.entries()) {
    const base = { id: record.id, seq: record.seq };
    if (record.type === 'user') {
      const text = textOf(record.content);
      const trimmed = text.trim();
      // Gemini CLI's environment context (date, platform, workspace) opens the chat as a user
      // message of its own: the baseline, not a message of the conversation. A compression's
      // summary is a user message too.
      if (trimmed.startsWith('<session_context>')) continue;
      if (isSummary(current, i))
        messages.push({ ...base, role: 'compaction', hidden: true, text: snapshotText(trimmed) });
      else if (text !== '') messages.push({ ...base, role: 'user', hidden: false, text });
      continue;
    }
    if (record.type !== 'gemini') continue;
    const calls = record.toolCalls ?? [];
    messages.push({
      ...base,
      role: 'assistant',
      hidden: false,
      status: 'completed',
      text: textOf(record.content),
      toolCalls: calls.map((call) => ({
        callId: modelCallId(call),
        name: call.name,
        input: JSON.stringify(call.args ?? {}),
      })),
    });
    for (const call of calls) {
      const settled = call.result !== undefined && call.status !== 'executing' && call.status !== 'scheduled';
      messages.push({
        id: `${record.id}/${call.id}`,
        seq: record.seq,
        role: 'tool',
        hidden: false,
        status: settled ? (call.status === 'success' ? 'success' : 'error') : 'running',
        assistantMessageId: record.id,
        callId: modelCallId(call),
        name: call.name,
        output: settled ? responseText(call.result) : null,
      });
    }
  }
  return messages;
}

/**
 * Turns Gemini CLI recorded as failed: its `error` message records, each a `provider-error`.
 * Gemini CLI does not tell a provider's context-overflow refusal from any other: a refusal is a
 * `GeminiEventType.Error`, which its ACP `Session.prompt` turns into a `RequestError` with the
 * provider's status and words (gemini-3HFX2LNT.js); its one overflow of its own is its estimate
 * before sending (`ContextWindowWillOverflow`, `GeminiClient.sendMessageStream`, chunk-JDPZ4CE3.js),
 * which sends nothing and so is no provider's refusal.
 */
export function toKitFailures(records) {
  return currentMessages(records)
    .filter((record) => record.type === 'error')
    .map((record) => ({ code: 'provider-error', message: textOf(record.content) || 'the provider turn failed' }));
}

const snapshotText = (text) => text.replace(/^<state_snapshot>\n?/, '').replace(/\n?<\/state_snapshot>[\s\S]*$/, '');

/** What Gemini CLI has the model answer to a compression's summary in the history it compressed to (chunk-JDPZ4CE3.js). */
const SUMMARY_ACKNOWLEDGED = 'Got it. Thanks for the additional context!';

/**
 * Whether `messages[i]` is a compression's summary: a user message Gemini CLI follows with its own
 * acknowledgement, whatever the summary says (a model asked for a `<state_snapshot>` may write
 * none), or one that is a `<state_snapshot>`.
 */
function isSummary(messages, i) {
  const next = messages[i + 1];
  return (
    messages[i].type === 'user' &&
    (textOf(messages[i].content).trim().startsWith('<state_snapshot>') ||
      (next?.type === 'gemini' && textOf(next.content).trim() === SUMMARY_ACKNOWLEDGED))
  );
}

/**
 * Gemini CLI's compressions: a completed compression starts a new chat over the compressed
 * history, which rewrites the file's messages (a `$set` of `messages`) with the summary as a user
 * message and its acknowledgement. It records no failed or cut compression.
 */
export function toKitCompactions(records) {
  const compactions = [];
  let last;
  for (const record of records) {
    const messages = record.$set?.messages;
    if (!Array.isArray(messages)) continue;
    const at = messages.findIndex((_, i) => isSummary(messages, i));
    const snapshot = at === -1 ? undefined : textOf(messages[at].content).trim();
    if (snapshot === undefined || snapshot === last) continue;
    last = snapshot;
    compactions.push({ status: 'completed', summary: snapshotText(snapshot) });
  }
  return compactions;
}
