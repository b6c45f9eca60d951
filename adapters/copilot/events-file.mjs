import { existsSync, mkdirSync, readFileSync, watch } from 'node:fs';
import { dirname, join } from 'node:path';
import { readJsonLines } from '../../harness/adapter/json-lines.mjs';

/**
 * What Copilot CLI keeps durably of a session: `<configDir>/session-state/<id>/events.jsonl`, one
 * session event a line, appended as the session goes (`user.message`, `assistant.message` with its
 * `toolRequests`, `tool.execution_start` and `tool.execution_complete`, `session.error`,
 * `session.compaction_start` and `session.compaction_complete`, `abort`, …); ephemeral events
 * (deltas, idle, usage) are told to the client only. `session.resume` rebuilds a session from this
 * file. Every observation the kit makes of durable state is read from it, never from the process.
 */
export function eventsFile(configDir, uuid) {
  return join(configDir, 'session-state', uuid, 'events.jsonl');
}

/**
 * Resolves once the session's events.jsonl holds the event `id`, or `gone` resolves (the process
 * ended). Copilot CLI writes a session's events on a debounce (`COPILOT_SESSIONFS_FLUSH_DEBOUNCE_MS`,
 * 100 ms by default, runtime.node), so an event it told its client may reach the file later: the
 * file is watched, never waited for by the clock.
 */
export function durable(configDir, uuid, id, gone) {
  const file = eventsFile(configDir, uuid);
  const holds = () => existsSync(file) && readFileSync(file, 'utf8').includes(`"id":"${id}"`);
  if (!id || holds()) return Promise.resolve();
  mkdirSync(dirname(file), { recursive: true });
  return new Promise((resolve) => {
    const watcher = watch(dirname(file), () => {
      if (holds()) done();
    });
    const done = () => {
      watcher.close();
      resolve();
    };
    gone.then(done);
    // The write may have landed between the first look and the watch.
    if (holds()) done();
  });
}

/** The file's events, each with `seq`, its line's position. */
export function readEvents(configDir, uuid) {
  const file = uuid && eventsFile(configDir, uuid);
  return file && existsSync(file) ? readJsonLines(file) : [];
}

/** The durable events, typed as Copilot CLI types them, at the time each carries. */
export function toKitEvents(records, after = 0) {
  return records
    .filter((record) => record.seq > after)
    .map((record) => ({
      seq: record.seq,
      type: record.type ?? 'unknown',
      at: record.timestamp ?? new Date(0).toISOString(),
    }));
}

/** A tool result's text as the model was given it. */
function resultText(data) {
  if (typeof data.result?.content === 'string') return data.result.content;
  if (typeof data.error?.message === 'string') return data.error.message;
  if (typeof data.error === 'string') return data.error;
  return '';
}

/**
 * The call's ID as the provider gave it: Copilot CLI keeps a Responses custom (free-form) tool call
 * under `custom_<call_id>` (a `toolRequests` entry of `type: "custom"`), and sends the provider's
 * `call_id` back with its output.
 */
const providerCallId = (call) => (call.type === 'custom' ? call.toolCallId.replace(/^custom_/, '') : call.toolCallId);

/**
 * The session's messages: prompts, the model's answers with their tool requests, each call's
 * result as a tool message after the answer that made it (a call started and never completed is
 * `running`, or `interrupted` once the turn was aborted or the session resumed after its process
 * ended), and each completed compaction's summary as a hidden compaction message. A compaction's
 * checkpoint leaves the events before it in the file; what the model sees after it is the summary
 * and the messages after the compaction.
 */
export function toKitHistory(records) {
  const messages = [];
  const tools = new Map();
  for (const record of records) {
    const data = record.data ?? {};
    const base = { id: record.id, seq: record.seq };
    switch (record.type) {
      case 'user.message':
        messages.push({ ...base, role: 'user', hidden: false, text: data.content ?? '' });
        break;
      case 'assistant.message': {
        if (data.parentToolCallId) break;
        const calls = data.toolRequests ?? [];
        messages.push({
          ...base,
          role: 'assistant',
          hidden: false,
          status: 'completed',
          text: data.content ?? '',
          toolCalls: calls.map((call) => ({
            callId: providerCallId(call),
            name: call.name,
            input: typeof call.arguments === 'string' ? call.arguments : JSON.stringify(call.arguments ?? {}),
          })),
        });
        for (const call of calls) {
          const tool = {
            id: `${record.id}/${call.toolCallId}`,
            seq: record.seq,
            role: 'tool',
            hidden: false,
            status: 'running',
            assistantMessageId: record.id,
            callId: providerCallId(call),
            name: call.name,
            output: null,
          };
          tools.set(call.toolCallId, tool);
          messages.push(tool);
        }
        break;
      }
      case 'tool.execution_complete': {
        const tool = tools.get(data.toolCallId);
        if (!tool) break;
        // A call left running by a process that ended is settled when its session is resumed, with
        // the error code `interrupted`.
        tool.status = data.success ? 'success' : data.error?.code === 'interrupted' ? 'interrupted' : 'error';
        tool.output = resultText(data);
        tool.seq = record.seq;
        // A shell output over the large-output threshold is saved whole to a file
        // (`largeOutput.outputDir`), which the result's `shell_exit` block names (`outputFilePath`,
        // `ToolExecutionCompleteContentShellExit`, session-events.d.ts).
        const saved = data.result?.contents?.find((block) => block.type === 'shell_exit')?.outputFilePath;
        if (saved) tool.outputPath = saved;
        break;
      }
      case 'abort':
        for (const tool of tools.values()) if (tool.status === 'running') tool.status = 'interrupted';
        break;
      case 'session.compaction_complete':
        if (data.success && typeof data.summaryContent === 'string')
          messages.push({ ...base, role: 'compaction', hidden: true, text: data.summaryContent });
        break;
    }
  }
  return messages;
}

/**
 * Turns Copilot CLI recorded as failed: its `session.error` events, an overflow where Copilot CLI
 * itself took the refusal for one (`errorType: "context_limit"`), never by the adapter's reading of
 * the message.
 */
export function toKitFailures(records) {
  return records
    .filter((record) => record.type === 'session.error')
    .map((record) => ({
      code: record.data?.errorType === 'context_limit' ? 'context-overflow' : 'provider-error',
      message: record.data?.message ?? 'the turn failed',
    }));
}

/** Copilot CLI's compactions: a `session.compaction_start`, completed or failed by its `session.compaction_complete`. */
export function toKitCompactions(records) {
  const compactions = [];
  let open;
  for (const record of records) {
    if (record.type === 'session.compaction_start') {
      open = { status: 'started' };
      compactions.push(open);
    } else if (record.type === 'session.compaction_complete') {
      const data = record.data ?? {};
      const done = data.success
        ? { status: 'completed', ...(typeof data.summaryContent === 'string' && { summary: data.summaryContent }) }
        : { status: 'failed' };
      if (open) Object.assign(open, done);
      else compactions.push(done);
      open = undefined;
    }
  }
  return compactions;
}
