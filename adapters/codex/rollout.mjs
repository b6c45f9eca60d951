import { readJsonLines } from '../../harness/adapter/json-lines.mjs';

/**
 * Reads what Codex keeps durably of a thread: its rollout, one JSONL file per thread
 * (`$CODEX_HOME/sessions/YYYY/MM/DD/rollout-<time>-<thread id>.jsonl`), one record per line
 * (`session_meta`, `response_item`, `event_msg`, `turn_context`, `compacted`, ...). Every
 * observation the kit makes of durable state is read from this file, never from the process, so
 * what a crash loses is visible. A record's sequence number is its position in the file.
 */
export function readRollout(file) {
  return file ? readJsonLines(file) : [];
}

const kind = (record) =>
  typeof record.payload?.type === 'string' ? `${record.type}.${record.payload.type}` : record.type;

/** The durable events: every record in file order, typed by its record type and payload type. */
export function toKitEvents(records, after = 0) {
  return records
    .filter((record) => record.seq > after)
    .map((record) => ({ seq: record.seq, type: kind(record), at: record.timestamp }));
}

const contentText = (content = []) =>
  (typeof content === 'string' ? [{ text: content }] : content)
    .filter((part) => typeof part.text === 'string')
    .map((part) => part.text)
    .join('');

/**
 * Context Codex lowers into user-role messages of its own (the environment, AGENTS.md, notes on
 * an aborted turn): tagged fragments, not the user's prompts. AGENTS.md is headed by its
 * directory when a project file is among it, and by nothing else when the global file is alone.
 */
const CONTEXT_FRAGMENT = /^(<[a-z_]+>|# AGENTS\.md instructions( for |\n))/;

/**
 * How Codex wraps each context fragment it sends as a user-role message, declared to the kit as
 * `system-message.fallback`: the environment (with the date), AGENTS.md (headed by its directory)
 * and the note after an interrupted turn, each in its markers, `{text}` inside with & < > escaped.
 */
export const CONTEXT_WRAPPERS =
  '<environment_context>\n{text}\n</environment_context>{or}# AGENTS.md instructions{*}\n\n<INSTRUCTIONS>\n{text}\n</INSTRUCTIONS>{or}<turn_aborted>\n{text}\n</turn_aborted>';

const WRAPPERS = CONTEXT_WRAPPERS.split('{or}').map((template) => {
  const [before, after] = template.split('{text}');
  const opening = before
    .split('{*}')
    .map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
    .join('[^\\n]*');
  return { opening: new RegExp(`^${opening}`), after };
});

/** A fragment's text inside its markers, as the declared wrapper reads it; the text itself when none fits. */
function unwrapped(text) {
  for (const { opening, after } of WRAPPERS) {
    const open = opening.exec(text)?.[0];
    if (open === undefined || !text.endsWith(after) || text.length < open.length + after.length) continue;
    return text
      .slice(open.length, text.length - after.length)
      .replaceAll('&gt;', '>')
      .replaceAll('&lt;', '<')
      .replaceAll('&amp;', '&');
  }
  return text;
}

function outputText(output) {
  if (typeof output === 'string') return output;
  if (Array.isArray(output)) return contentText(output);
  if (output && typeof output.content === 'string') return output.content;
  return JSON.stringify(output ?? '');
}

/**
 * The output Codex records for a call an interrupt cut: the wall time, then `aborted by user`
 * (or `aborted by user after <duration>`), in place of the command's output.
 */
const ABORTED = /^(?:Wall time: [^\n]*\n)?aborted by user(?: after [^\n]*)?$/;

/** The exit status shell_command and exec_command report in their output. */
const exitCode = (text) => /(?:Exit code|exited with code):? (-?\d+)/.exec(text)?.[1];

/** An assistant message of the history, opened by the rollout item `item` of `record`. */
function assistantMessage(record, item, text) {
  return {
    seq: record.seq,
    id: item.id ?? `assistant_${record.seq}`,
    role: 'assistant',
    hidden: false,
    status: 'completed',
    text,
    toolCalls: [],
  };
}

/**
 * The user's prompts Codex recorded, each the `response_item` user message that put it in the
 * history, named by the client's ID (`clientUserMessageId` on `turn/start`, `turn/steer` or
 * `thread/queue/add`) that the `item_completed` event of that message carries as `client_id`
 * right after it. A prompt without one (none was given) keeps Codex's item ID.
 */
export function promotedPrompts(records) {
  const prompts = [];
  const unnamed = [];
  for (const record of records) {
    if (record.type === 'compacted') continue;
    const item = record.payload;
    if (record.type === 'response_item' && item.type === 'message' && item.role === 'user') {
      const text = contentText(item.content);
      if (CONTEXT_FRAGMENT.test(text)) continue;
      const prompt = { seq: record.seq, id: item.id ?? `user_${record.seq}`, text };
      prompts.push(prompt);
      unnamed.push(prompt);
    } else if (record.type === 'event_msg' && item.type === 'item_completed' && item.item?.type === 'UserMessage') {
      const text = contentText(item.item.content);
      const index = unnamed.findIndex((prompt) => prompt.text === text);
      if (index < 0 || !item.item.client_id) continue;
      unnamed[index].id = item.item.client_id;
      unnamed.splice(0, index + 1);
    }
  }
  return prompts;
}

/**
 * The thread's messages from its `response_item` records: user prompts, assistant messages
 * with the function calls that follow them in the same response, the calls' outputs settling
 * them by call ID, and the `compacted` records as hidden checkpoints. A call without an output
 * is `running`.
 */
export function toKitHistory(records) {
  const messages = [];
  const calls = new Map();
  const promptIds = new Map(promotedPrompts(records).map((prompt) => [prompt.seq, prompt.id]));
  let assistant;
  /** Context fragments before the first prompt are the thread's baseline, not messages. */
  let prompted = false;
  for (const record of records) {
    const base = { seq: record.seq };
    if (record.type === 'compacted') {
      assistant = undefined;
      messages.push({
        ...base,
        id: `compacted_${record.seq}`,
        role: 'compaction',
        hidden: true,
        text: record.payload.message ?? '',
      });
      continue;
    }
    if (record.type !== 'response_item') continue;
    const item = record.payload;
    if (item.type === 'message' && item.role === 'user') {
      assistant = undefined;
      const text = contentText(item.content);
      const id = promptIds.get(record.seq) ?? item.id ?? `user_${record.seq}`;
      if (!CONTEXT_FRAGMENT.test(text)) {
        prompted = true;
        messages.push({ ...base, id, role: 'user', hidden: false, text });
      } else if (prompted) {
        // Context Codex adds once the conversation has begun (a changed environment): a system message.
        messages.push({ ...base, id, role: 'system', hidden: true, text });
      }
    } else if (item.type === 'message' && item.role === 'assistant') {
      assistant = assistantMessage(record, item, contentText(item.content));
      messages.push(assistant);
    } else if (item.type === 'function_call' || item.type === 'custom_tool_call' || item.type === 'local_shell_call') {
      // Calls without text before them are an assistant message of their own.
      if (!assistant) {
        assistant = assistantMessage(record, item, '');
        messages.push(assistant);
      }
      const input = item.arguments ?? item.input ?? JSON.stringify(item.action ?? {});
      assistant.toolCalls.push({ callId: item.call_id, name: item.name ?? item.type, input });
      const tool = {
        ...base,
        id: `${assistant.id}/${item.call_id}`,
        role: 'tool',
        hidden: false,
        status: 'running',
        assistantMessageId: assistant.id,
        callId: item.call_id,
        name: item.name ?? item.type,
        output: null,
      };
      messages.push(tool);
      calls.set(item.call_id, tool);
    } else if (item.type === 'function_call_output' || item.type === 'custom_tool_call_output') {
      assistant = undefined;
      const tool = calls.get(item.call_id);
      if (!tool) continue;
      calls.delete(item.call_id);
      const output = outputText(item.output);
      const code = exitCode(output);
      // A call of a tool Codex does not have is answered 'unsupported call: <name>' and never runs;
      // a patch apply_patch rejects before applying anything is answered with its verification error.
      const failed =
        item.output?.success === false ||
        (code !== undefined && code !== '0') ||
        output.startsWith('unsupported call: ') ||
        // A call its client declined when Codex asked for approval never runs.
        output === 'patch rejected by user' ||
        output === 'exec command rejected by user' ||
        output.startsWith('apply_patch verification failed: ');
      Object.assign(tool, { status: ABORTED.test(output) ? 'interrupted' : failed ? 'error' : 'success', output });
    } else {
      assistant = undefined;
    }
  }
  return messages;
}

/**
 * Turns that ended in an error: Codex stores the error with the turn's `task_complete` event (an
 * overflow of the window by its `codex_error_info`, context_window_exceeded).
 */
export function toKitFailures(records) {
  return records
    .filter((record) => record.type === 'event_msg' && record.payload.type === 'task_complete' && record.payload.error)
    .map(({ payload: { error } }) => {
      const message = String(error.message ?? 'the provider turn failed');
      return error.codex_error_info === 'context_window_exceeded'
        ? { code: 'context-overflow', message }
        : { code: 'provider-error', message };
    });
}

/** Codex records a compaction (`compacted`) once its summary is in: every one is completed. */
export function toKitCompactions(records) {
  return records
    .filter((record) => record.type === 'compacted')
    .map((record) => ({ status: 'completed', summary: record.payload.message ?? '' }));
}

/**
 * Codex's context window, its epoch: the world state it records in the rollout (`world_state`
 * records, one section per stable ID, each section's comparison value), replayed as Codex replays
 * it when it resumes a thread (`core/src/session/rollout_reconstruction.rs`): a `compacted` record
 * ends the window and its snapshot, a `full` record starts the snapshot, and each later record is
 * an RFC 7386 merge patch of it (a patch without a full snapshot is ignored, as Codex ignores it).
 * No full record since the last compaction: no epoch (Codex renders the whole context anew on the
 * next turn).
 *
 * The baseline is what the window's requests lead with, as Codex recorded it: the thread's base
 * instructions (`session_meta`, sent as `instructions`), then the developer messages and context
 * fragments that open the window before any other item (the rollout's first items, or after a
 * compaction the replacement history of its `compacted` record), each fragment read inside its
 * markers, joined by blank lines.
 */
export function toKitEpoch(records) {
  let snapshot;
  let window = [];
  let base;
  for (const record of records) {
    if (record.type === 'session_meta') base ??= record.payload.base_instructions?.text;
    else if (record.type === 'compacted') {
      snapshot = undefined;
      window = (record.payload.replacement_history ?? []).map((payload) => ({ type: 'response_item', payload }));
    } else if (record.type === 'response_item' && snapshot === undefined) window.push(record);
    else if (record.type === 'world_state' && record.payload.full) snapshot = structuredClone(record.payload.state);
    else if (record.type === 'world_state' && snapshot !== undefined)
      snapshot = mergePatch(snapshot, record.payload.state);
  }
  if (snapshot === undefined) return { baseline: null, snapshot: {} };
  return {
    baseline: [...(base ? [base] : []), ...leadingContext(window)].join('\n\n'),
    snapshot: Object.fromEntries(Object.entries(snapshot).map(([key, value]) => [key, { value }])),
  };
}

/** RFC 7386: a null removes a member, an object merges into an object, anything else replaces. */
function mergePatch(target, patch) {
  if (patch === null || typeof patch !== 'object' || Array.isArray(patch)) return patch;
  const merged = target !== null && typeof target === 'object' && !Array.isArray(target) ? { ...target } : {};
  for (const [key, value] of Object.entries(patch))
    if (value === null) delete merged[key];
    else merged[key] = mergePatch(merged[key], value);
  return merged;
}

/** The developer messages and context fragments the window opens with, before any other item. */
function leadingContext(window) {
  const texts = [];
  for (const { payload: item } of window) {
    if (item.type !== 'message') break;
    if (item.role === 'developer' || item.role === 'system') texts.push(contentText(item.content));
    else if (item.role === 'user' && CONTEXT_FRAGMENT.test(contentText(item.content))) {
      for (const part of item.content) if (typeof part.text === 'string') texts.push(unwrapped(part.text));
    } else break;
  }
  return texts;
}
