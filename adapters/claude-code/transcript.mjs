import { readJsonLines } from '../../harness/adapter/json-lines.mjs';

/**
 * Reads what Claude Code keeps durably: one JSONL transcript per session
 * (`<config dir>/projects/<escaped cwd>/<session id>.jsonl`), one row per line. Conversation rows
 * (`user`, `assistant`, `system`, `attachment`) name their parent by `parentUuid`; bookkeeping rows
 * (`queue-operation`, `last-prompt`, `api-request*`, `cost-state`, ...) carry no conversation.
 * Every observation the kit makes of durable state is read from this file, never from the
 * process's output, so what a crash loses is visible. A row's sequence number is its line number.
 */
export function readRows(file) {
  return readJsonLines(file);
}

const CONVERSATION = new Set(['user', 'assistant', 'system', 'attachment']);

/** The conversation rows on the chain that ends at the last one, oldest first. */
export function currentChain(rows) {
  const conversation = rows.filter((row) => CONVERSATION.has(row.type) && !row.isSidechain && row.uuid);
  const byId = new Map(conversation.map((row) => [row.uuid, row]));
  const chain = [];
  const seen = new Set();
  // A compaction's boundary row starts a new chain (no parent); it names the row it follows as its
  // logical parent, so the chain runs on through the compacted rows.
  const parentOf = (row) => row.parentUuid ?? (row.subtype === 'compact_boundary' ? row.logicalParentUuid : undefined);
  for (let row = conversation.at(-1); row && !seen.has(row.uuid); row = byId.get(parentOf(row))) {
    seen.add(row.uuid);
    chain.push(row);
  }
  // Claude Code writes the result of each of a response's tool calls under the assistant row of its
  // call (`sourceToolAssistantUUID`), so the results of parallel calls branch off one another, and
  // the chain from the last row passes through one of them only; its own loader attaches the
  // others back to the rows of their calls. So does this projection, in file order.
  // Each content block of a response is a row of its own, chained one after another, and a call
  // refused before the response's later blocks were written has its result between them: the
  // chain from the last row, through an earlier call's result, then passes by those later blocks.
  // They carry the response's `message.id`, by which the projection takes them back in too.
  const responses = new Set(
    chain.flatMap((row) => (row.type === 'assistant' && row.message?.id ? [row.message.id] : [])),
  );
  for (const row of conversation)
    if (row.type === 'assistant' && !seen.has(row.uuid) && responses.has(row.message?.id)) {
      seen.add(row.uuid);
      chain.push(row);
    }
  const order = new Map(conversation.map((row, index) => [row.uuid, index]));
  const results = conversation.filter(
    (row) => row.type === 'user' && !seen.has(row.uuid) && seen.has(row.sourceToolAssistantUUID),
  );
  return [...chain, ...results].sort((a, b) => order.get(a.uuid) - order.get(b.uuid));
}

/**
 * The durable events: the conversation rows in file order, numbered from 1, typed by Claude Code's
 * own row type (and subtype). Bookkeeping rows are left out: Claude Code's own loader classes them
 * apart from messages, and it writes some (`last-prompt`, `atis-latch`) on timers of its own, so
 * their number at a given moment says when the kit looked, not what the session holds.
 */
export function toKitEvents(rows, after = 0) {
  return rows
    .filter((row) => CONVERSATION.has(row.type))
    .map((row, index) => ({
      seq: index + 1,
      type: [row.type, row.subtype ?? row.attachment?.type].filter(Boolean).join('.'),
      at: row.timestamp,
    }))
    .filter((event) => event.seq > after);
}

function blocksOf(content) {
  return typeof content === 'string' ? [{ type: 'text', text: content }] : Array.isArray(content) ? content : [];
}

function textOf(content) {
  return blocksOf(content)
    .filter((block) => block.type === 'text')
    .map((block) => block.text)
    .join('');
}

/** Claude Code's own marker of a system reminder it puts into a user turn (dates, file changes). */
const isReminder = (text) => text.trimStart().startsWith('<system-reminder>');

/**
 * A change of the instruction files Claude Code saw once the session had begun (when it starts
 * again over the session, say): an `instructions` attachment row marked `changed`, whose
 * `rendered` parts keep the reminder text exactly as it went into the next user turn.
 */
const isToldChange = (row) =>
  row.type === 'attachment' &&
  row.attachment?.type === 'instructions' &&
  row.attachment.changed === true &&
  Array.isArray(row.rendered);

/** The user row Claude Code writes after an interrupt; a tool it stopped has an error result just before. */
const isInterruptMarker = (text) => text.startsWith('[Request interrupted by user');

/** The result Claude Code records, when it resumes a session, for a call whose process died. */
const isAbandoned = (output) => output.startsWith('[Tool call interrupted');

/**
 * The session's messages as the kit projects them. A user row is the prompt the user sent (its
 * system-reminder blocks, which Claude Code adds itself, left out); `isMeta` user rows are Claude
 * Code's own and hidden. Claude Code writes one assistant row per content block of a provider
 * response, all with the response's `message.id`: they are one assistant message. A tool call is
 * durable in its assistant row before it runs; the user row carrying its `tool_result` settles
 * it, and `toolUseResult.persistedOutputPath` (or the path quoted in a persisted-output result)
 * is the file holding the complete output.
 */
export function toKitHistory(rows) {
  const messages = [];
  const calls = new Map();
  let assistant;
  let stopped = [];
  for (const row of currentChain(rows)) {
    const base = { id: row.uuid, seq: row.seq };
    if (row.type === 'assistant') {
      const message = row.message ?? {};
      // A response's later blocks may follow the results of its calls refused meanwhile (currentChain).
      if (!assistant && message.id !== undefined) {
        const last = messages.findLast((m) => m.role === 'assistant');
        if (last?.responseId === message.id) assistant = last;
      }
      if (!assistant || assistant.responseId !== message.id || message.id === undefined) {
        assistant = {
          ...base,
          role: 'assistant',
          hidden: false,
          status: row.isApiErrorMessage ? 'failed' : 'completed',
          text: '',
          toolCalls: [],
          responseId: message.id,
        };
        messages.push(assistant);
      }
      for (const block of blocksOf(message.content)) {
        if (block.type === 'text') assistant.text += block.text;
        if (block.type !== 'tool_use') continue;
        const call = { callId: block.id, name: block.name, input: JSON.stringify(block.input ?? {}) };
        assistant.toolCalls.push(call);
        const tool = {
          id: `${row.uuid}/${block.id}`,
          seq: row.seq,
          role: 'tool',
          hidden: false,
          status: 'running',
          assistantMessageId: assistant.id,
          callId: block.id,
          name: block.name,
          output: null,
        };
        messages.push(tool);
        calls.set(block.id, tool);
      }
      continue;
    }
    if (isToldChange(row)) {
      messages.push({ ...base, role: 'system', hidden: true, text: row.rendered.map((part) => part.content).join('') });
      continue;
    }
    if (row.type !== 'user') continue;
    assistant = undefined;
    if (row.isCompactSummary) {
      // Shown in Claude Code's transcript view only (isVisibleInTranscriptOnly): a hidden checkpoint.
      messages.push({ ...base, role: 'compaction', hidden: true, text: summaryOf(textOf(row.message?.content)) });
      continue;
    }
    const blocks = blocksOf(row.message?.content);
    const results = blocks.filter((block) => block.type === 'tool_result');
    for (const result of results) {
      const tool = calls.get(result.tool_use_id);
      if (!tool) continue;
      calls.delete(result.tool_use_id);
      const output = typeof result.content === 'string' ? result.content : textOf(result.content);
      const outputPath = persistedPath(row.toolUseResult, output) ?? row.mcpMeta?._meta?.[KEPT_OUTPUT];
      const structured = row.mcpMeta?.structuredContent;
      Object.assign(tool, {
        id: row.uuid,
        status: result.is_error ? (isAbandoned(output) ? 'interrupted' : 'error') : 'success',
        output,
        ...(outputPath ? { outputPath } : {}),
        ...(structured !== undefined ? { structured } : {}),
      });
    }
    if (results.length > 0) {
      stopped = results.filter((result) => result.is_error).map((result) => result.tool_use_id);
      continue;
    }
    const text = blocks
      .filter((block) => block.type === 'text' && !isReminder(block.text))
      .map((block) => block.text)
      .join('\n');
    if (text === '' && blocks.some((block) => block.type === 'text')) continue;
    const command = localCommand(text);
    if (command !== undefined) {
      messages.push({ ...base, role: 'user', hidden: command.output, text: command.text });
      continue;
    }
    const interrupt = isInterruptMarker(text);
    if (interrupt)
      for (const tool of messages)
        if (tool.role === 'tool' && stopped.includes(tool.callId)) tool.status = 'interrupted';
    stopped = [];
    messages.push({ ...base, role: 'user', hidden: row.isMeta === true || interrupt, text });
  }
  return messages.map(({ responseId, ...message }) => message);
}

/**
 * A local command the user ran (`/compact`), as Claude Code records it: one user row naming the
 * command and its arguments, shown as typed, and one with its output to the terminal, which normal
 * views show as the command's output, not as a message of the user's.
 */
function localCommand(text) {
  const name = /^<command-name>([^<]*)<\/command-name>/.exec(text);
  if (name) {
    const args = /<command-args>([^<]*)<\/command-args>/.exec(text)?.[1] ?? '';
    return { text: [name[1], args].filter(Boolean).join(' '), output: false };
  }
  const output = /^<local-command-(stdout|stderr)>([\s\S]*)<\/local-command-\1>$/.exec(text.trim());
  return output ? { text: output[2], output: true } : undefined;
}

/**
 * The summary a compaction's summary row holds: Claude Code puts the model's `<summary>` block after
 * a preamble of its own and a `<system-reminder>` block, under a `Summary:` line in place of the
 * tags, and may add a line pointing at the full transcript after a blank line.
 */
function summaryOf(text) {
  const heading = text.indexOf('\nSummary:\n');
  return heading === -1 ? text : text.slice(heading + '\nSummary:\n'.length);
}

/**
 * The key of an MCP tool result's `_meta` under which a tool the adapter hosts names the file it
 * kept its complete output in (the kit's `produce` with `keptAt`): Claude Code keeps an MCP
 * result's `structuredContent` and `_meta` with the result's row (`mcpMeta`).
 */
export const KEPT_OUTPUT = 'kit/outputPath';

/** Where Claude Code saved a tool's complete output, when it kept only a preview in the result. */
function persistedPath(toolUseResult, output) {
  if (typeof toolUseResult?.persistedOutputPath === 'string') return toolUseResult.persistedOutputPath;
  return /<persisted-output>[\s\S]*?saved to:?\s*(\S+)/i.exec(output)?.[1];
}

/**
 * The text Claude Code writes as the whole of an API error row when it took the refusal for an
 * overflow, in place of the provider's words (kept as the row's `errorDetails`): its constant
 * `"Prompt is too long"`, defined beside `"API Error"` in the binary, and read back by its own
 * check that an error row is an overflow (an `isApiErrorMessage` row with a text block starting
 * with it, which also covers its "Prompt is too long · automatic compaction failed: " rows).
 */
const PROMPT_TOO_LONG = 'Prompt is too long';

/**
 * The failures Claude Code recorded: the synthetic assistant rows (`isApiErrorMessage`) it writes
 * when a provider request fails for good, that ended the turn; an overflow where Claude Code wrote
 * its own overflow text, never by the adapter's reading of the provider's words.
 */
export function toKitFailures(rows) {
  return currentChain(rows).flatMap((row) => {
    // The turn cap (`--max-turns`) reached: Claude Code records it as an attachment row of its own.
    if (row.type === 'attachment' && row.attachment?.type === 'max_turns_reached')
      return [{ code: 'turn-limit', message: `Claude Code stopped at its cap of ${row.attachment.maxTurns} turns` }];
    if (!(row.type === 'assistant' && row.isApiErrorMessage)) return [];
    const overflow = blocksOf(row.message?.content).some(
      (block) => block.type === 'text' && block.text.startsWith(PROMPT_TOO_LONG),
    );
    return [
      {
        code: overflow ? 'context-overflow' : 'provider-error',
        message: textOf(row.message?.content) || 'the provider request failed',
      },
    ];
  });
}

/**
 * Claude Code's compactions: a `system` row of subtype `compact_boundary` starts the new chain,
 * and the summary follows as a user row marked `isCompactSummary`.
 */
export function toKitCompactions(rows) {
  const compactions = [];
  for (const row of rows) {
    if (row.type === 'system' && row.subtype === 'compact_boundary') compactions.push({ status: 'completed' });
    else if (row.type === 'user' && row.isCompactSummary && compactions.length > 0)
      compactions.at(-1).summary = summaryOf(textOf(row.message?.content));
  }
  return compactions;
}

/** The attachment rows by which Claude Code tells the model a context source, with the source's value. */
const CONTEXT_SOURCES = ['instructions', 'environment', 'date'];

/**
 * The Context Epoch as Claude Code keeps it in the transcript. The baseline: the system blocks of
 * the newest request of the session's own turns (an `api-request` row of `querySource` `sdk`) as
 * Claude Code recorded them in the `api-request-shape` row its `shapeHash` names, joined as the kit
 * joins a system field's blocks; null before any. The snapshot: per context source Claude Code
 * tells the model through an attachment row (`instructions` with its files, `environment` with its
 * snapshot, `date`), the value the newest such row on the current chain holds, under the row's type.
 * Claude Code keeps no removal text with a value: it renders one only when a source goes.
 */
export function toKitEpoch(rows) {
  const request = rows.findLast((row) => row.type === 'api-request' && row.querySource === 'sdk');
  const shape = request && rows.find((row) => row.type === 'api-request-shape' && row.shapeHash === request.shapeHash);
  const system = shape?.shape?.system;
  const baseline = Array.isArray(system)
    ? system.map((block) => (typeof block === 'string' ? block : (block.text ?? ''))).join('\n\n')
    : typeof system === 'string'
      ? system
      : null;
  const snapshot = {};
  for (const row of currentChain(rows)) {
    const source = row.type === 'attachment' ? row.attachment?.type : undefined;
    if (!CONTEXT_SOURCES.includes(source)) continue;
    const { type, ...value } = row.attachment;
    snapshot[source] = { value };
  }
  return { baseline, snapshot };
}
