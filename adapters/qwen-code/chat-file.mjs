import { readJsonLines } from '../../harness/adapter/json-lines.mjs';

/**
 * Reads what Qwen Code keeps durably of a session: its chat recording, one JSONL file per session
 * (`<QWEN_RUNTIME_DIR>/projects/<project>/chats/<session UUID>.jsonl`), one record per line, each
 * naming its parent. Every observation the kit makes of durable state is read from this file,
 * never from the process, so what a crash loses is visible. A record's sequence number is its
 * position in the file.
 */
export function readRecords(file) {
  return readJsonLines(file);
}

/** The durable events: every record in file order, typed by its type (and a system record's subtype). */
export function toKitEvents(records, after = 0) {
  return records
    .filter((record) => record.seq > after)
    .map((record) => ({
      seq: record.seq,
      type: record.type === 'system' ? `system.${record.subtype}` : record.type,
      at: record.timestamp,
    }));
}

/**
 * The records on the active chain: from the last record up its parents. A compression record
 * starts the chain the model sees; the full transcript before it stays in the file.
 */
function chain(records) {
  const byId = new Map(records.map((record) => [record.uuid, record]));
  const branch = [];
  for (let record = records.at(-1); record; record = record.parentUuid ? byId.get(record.parentUuid) : undefined)
    branch.push(record);
  return branch.reverse();
}

const partsText = (parts = []) =>
  parts
    .filter((part) => typeof part.text === 'string' && !part.thought)
    .map((part) => part.text)
    .join('');

/**
 * The session's messages: user prompts, the model's answers with their function calls, the tool
 * results (`tool_result` records, whose `functionResponse` settles a call by its ID) and the
 * compression checkpoints. A call without a result is `running`.
 */
export function toKitHistory(records) {
  const messages = [];
  const unsettled = new Map();
  for (const record of chain(records)) {
    const base = { id: record.uuid, seq: record.seq };
    if (record.type === 'system' && record.subtype === 'chat_compression') {
      messages.push({ ...base, role: 'compaction', hidden: true, text: compressionSummary(record) });
      continue;
    }
    const parts = record.message?.parts ?? [];
    if (record.type === 'user') {
      const text = partsText(parts);
      if (text !== '') messages.push({ ...base, role: 'user', hidden: false, text });
      continue;
    }
    if (record.type === 'assistant') {
      const toolCalls = parts
        .filter((part) => part.functionCall)
        .map(({ functionCall }) => ({
          callId: functionCall.id,
          name: functionCall.name,
          input: JSON.stringify(functionCall.args ?? {}),
        }));
      messages.push({
        ...base,
        role: 'assistant',
        hidden: false,
        status: 'completed',
        text: partsText(parts),
        toolCalls,
      });
      for (const call of toolCalls) {
        const tool = {
          id: `${record.uuid}/${call.callId}`,
          seq: record.seq,
          role: 'tool',
          hidden: false,
          status: 'running',
          assistantMessageId: record.uuid,
          callId: call.callId,
          name: call.name,
          output: null,
        };
        messages.push(tool);
        unsettled.set(call.callId, tool);
      }
      continue;
    }
    if (record.type === 'tool_result') {
      for (const part of parts) {
        const response = part.functionResponse;
        const tool = response && unsettled.get(response.id);
        if (!tool) continue;
        unsettled.delete(response.id);
        const result = record.toolCallResult ?? {};
        Object.assign(tool, {
          id: `${record.uuid}/${response.id}`,
          status: settlement(result),
          output: responseText(response.response),
          // Where Qwen Code saved the complete output of a truncated result.
          ...(typeof result.resultDisplay?.outputFiles?.[0] === 'string'
            ? { outputPath: result.resultDisplay.outputFiles[0] }
            : {}),
        });
      }
    }
  }
  return messages;
}

/**
 * A settled call's status: Qwen Code records a call that never ran, declined by its user or cut off
 * by a cancelled turn, as `cancelled` ("… was canceled by the user"), which the kit calls interrupted.
 */
function settlement(result) {
  if (result.error || result.status === 'error') return 'error';
  return result.status === 'cancelled' ? 'interrupted' : 'success';
}

function responseText(response) {
  if (response === undefined || response === null) return '';
  if (typeof response.output === 'string') return response.output;
  if (typeof response.error === 'string') return response.error;
  return JSON.stringify(response);
}

/** The summary a compression left: the text of the first message of the history it set up. */
function compressionSummary(record) {
  const [first] = record.systemPayload?.compressedHistory ?? [];
  return partsText(first?.parts);
}

const isTelemetry = (record) => record.type === 'system' && record.subtype === 'ui_telemetry';
const isApiError = (record) =>
  isTelemetry(record) && record.systemPayload?.uiEvent?.['event.name'] === 'qwen-code.api_error';

/** The records before `index` that are only telemetry, nearest first (a request's own records). */
function telemetryBefore(records, index) {
  const run = [];
  for (let at = index - 1; at >= 0 && isTelemetry(records[at]); at--) run.push(records[at]);
  return run;
}

/**
 * Whether Qwen Code took the refusal at `index` for a context overflow. Its own test
 * (`getContextLengthExceededInfo`, in GeminiChat's `sendMessageStream`, chunks/chunk-DPEB6S2R.js)
 * writes nothing of its verdict; what it does on it is durable: it compresses the history once
 * (`tryCompress`, a `chat_compression` record of `triggerReason` "token_limit") and sends the turn
 * again, and ends the turn on a second overflow. So a refusal of that rebuilt attempt (the next
 * request after the compression) is one it took for an overflow when the compression followed a
 * refusal of the same kind (the status and error type of its `api_error` telemetry) with only that
 * request's telemetry between (the summary request's). A threshold compression comes before a
 * request, after the turn's user record; an overflow with nothing to compress leaves no trace of
 * Qwen Code's reading, and is a provider-error.
 */
function refusedAfterOverflowCompression(records, index) {
  const at = index - telemetryBefore(records, index).length - 1;
  const compression = records[at];
  if (compression?.subtype !== 'chat_compression' || compression.systemPayload?.info?.triggerReason !== 'token_limit')
    return false;
  const refused = telemetryBefore(records, at).filter(isApiError).at(-1);
  const [failed, first] = [records[index].systemPayload.uiEvent, refused?.systemPayload.uiEvent];
  return first !== undefined && failed.status_code === first.status_code && failed.error_type === first.error_type;
}

/**
 * Turns Qwen Code recorded as failed: the `api_error` telemetry record that ended its turn, with
 * the provider's words Qwen Code recorded. An attempt it recovered from, or retried (an overflow
 * it compressed and sent again), is part of the transcript, not a failure of the session.
 */
export function toKitFailures(records) {
  return records.flatMap((record, index) => {
    if (!isApiError(record)) return [];
    // A turn's attempts fail once: only the last error before the next message ends it.
    const next = records
      .slice(index + 1)
      .find((later) => later.type === 'user' || later.type === 'assistant' || isApiError(later));
    if (next !== undefined && next.type !== 'user') return [];
    const event = record.systemPayload.uiEvent;
    return [
      {
        code: refusedAfterOverflowCompression(records, index) ? 'context-overflow' : 'provider-error',
        message: String(event.error ?? event.error_message ?? 'the provider turn failed'),
      },
    ];
  });
}

/** Qwen Code records a compression once it is done: every one is completed. */
export function toKitCompactions(records) {
  return records
    .filter((record) => record.type === 'system' && record.subtype === 'chat_compression')
    .map((record) => ({ status: 'completed', summary: compressionSummary(record) }));
}
