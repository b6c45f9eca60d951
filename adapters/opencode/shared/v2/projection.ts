import type { DurableEvent } from './api.js';
import { kitMessageId } from './ids.js';

/**
 * The kit's views (history, inbox, failures, events) projected from OpenCode's durable events,
 * which carry the sequence numbers the protocol speaks of.
 */

type ToolStatus = 'running' | 'success' | 'error' | 'interrupted';

interface ToolCall {
  callId: string;
  name: string;
  input: string;
}

export type HistoryMessage =
  | { id: string; seq: number; role: 'user'; hidden: boolean; text: string }
  | { id: string; seq: number; role: 'system'; hidden: boolean; text: string }
  | {
      id: string;
      seq: number;
      role: 'assistant';
      hidden: boolean;
      status: 'streaming' | 'completed' | 'failed';
      text: string;
      toolCalls: ToolCall[];
    }
  | {
      id: string;
      seq: number;
      role: 'tool';
      hidden: boolean;
      status: ToolStatus;
      assistantMessageId: string;
      callId: string;
      name: string;
      output: string | null;
      structured?: unknown;
      outputPath?: string;
    }
  | { id: string; seq: number; role: 'compaction'; hidden: boolean; text: string };

const seqOf = (event: DurableEvent) => event.durable?.seq ?? 0;
const str = (value: unknown) => (typeof value === 'string' ? value : '');

export function history(events: DurableEvent[]): HistoryMessage[] {
  const messages: HistoryMessage[] = [];
  const assistants = new Map<string, Extract<HistoryMessage, { role: 'assistant' }>>();
  const tools = new Map<string, Extract<HistoryMessage, { role: 'tool' }>>();
  const toolKey = (data: DurableEvent['data']) => `${str(data.assistantMessageID)}/${str(data.callID)}`;
  for (const event of events) {
    const data = event.data;
    const seq = seqOf(event);
    switch (event.type) {
      case 'session.next.prompted':
        messages.push({
          id: kitMessageId(str(data.messageID)),
          seq,
          role: 'user',
          hidden: false,
          text: promptText(data.prompt),
        });
        break;
      case 'session.next.synthetic':
        messages.push({ id: kitMessageId(str(data.messageID)), seq, role: 'user', hidden: true, text: str(data.text) });
        break;
      case 'session.next.context.updated':
        messages.push({
          id: kitMessageId(str(data.messageID)),
          seq,
          role: 'system',
          hidden: true,
          text: str(data.text),
        });
        break;
      case 'session.next.step.started': {
        const id = str(data.assistantMessageID);
        const message = {
          id,
          seq,
          role: 'assistant' as const,
          hidden: false,
          status: 'streaming' as const,
          text: '',
          toolCalls: [],
        };
        assistants.set(id, message);
        messages.push(message);
        break;
      }
      case 'session.next.text.ended': {
        const message = assistants.get(str(data.assistantMessageID));
        if (message) message.text += str(data.text);
        break;
      }
      case 'session.next.step.ended':
      case 'session.next.step.failed': {
        const message = assistants.get(str(data.assistantMessageID));
        if (message) message.status = event.type === 'session.next.step.ended' ? 'completed' : 'failed';
        break;
      }
      case 'session.next.tool.called': {
        const assistantMessageId = str(data.assistantMessageID);
        const provider = data.provider as { executed?: boolean } | undefined;
        if (provider?.executed) break;
        const call = { callId: str(data.callID), name: str(data.tool), input: JSON.stringify(data.input ?? {}) };
        assistants.get(assistantMessageId)?.toolCalls.push(call);
        const tool = {
          id: `${assistantMessageId}/${call.callId}`,
          seq,
          role: 'tool' as const,
          hidden: false,
          status: 'running' as ToolStatus,
          assistantMessageId,
          callId: call.callId,
          name: call.name,
          output: null as string | null,
        };
        tools.set(toolKey(data), tool);
        messages.push(tool);
        break;
      }
      case 'session.next.tool.success': {
        const tool = tools.get(toolKey(data));
        if (!tool) break;
        tool.status = 'success';
        const structured =
          data.structured !== undefined && Object.keys(data.structured as object).length > 0
            ? data.structured
            : undefined;
        // A tool with a structured result and no text content (read) is shown to the model as that result's JSON.
        tool.output = contentText(data.content) || (structured === undefined ? '' : JSON.stringify(structured));
        if (structured !== undefined) tool.structured = tool.name === 'read' ? readPage(structured) : structured;
        const paths = data.outputPaths as string[] | undefined;
        if (paths?.[0]) tool.outputPath = paths[0];
        break;
      }
      case 'session.next.tool.failed': {
        const tool = tools.get(toolKey(data));
        if (!tool) break;
        const error = data.error as { message?: string } | undefined;
        tool.status = /abort|interrupt|cancel/i.test(error?.message ?? '') ? 'interrupted' : 'error';
        tool.output = contentText(data.content) || (error?.message ?? '');
        break;
      }
      case 'session.next.compaction.ended':
        messages.push({
          id: kitMessageId(str(data.messageID)),
          seq,
          role: 'compaction',
          hidden: true,
          text: str(data.text),
        });
        break;
    }
  }
  return messages;
}

export interface InboxRow {
  messageId: string;
  text: string;
  delivery: 'steer' | 'queue';
  state: 'pending' | 'promoted';
  admittedSeq: number;
  promotedSeq: number | null;
}

export function inbox(events: DurableEvent[]): InboxRow[] {
  const rows = new Map<string, InboxRow>();
  for (const event of events) {
    const id = str(event.data.messageID);
    if (event.type === 'session.next.prompt.admitted') {
      rows.set(id, {
        messageId: kitMessageId(id),
        text: promptText(event.data.prompt),
        delivery: event.data.delivery === 'steer' ? 'steer' : 'queue',
        state: 'pending',
        admittedSeq: seqOf(event),
        promotedSeq: null,
      });
    } else if (event.type === 'session.next.prompted') {
      const row = rows.get(id);
      if (row) Object.assign(row, { state: 'promoted', promotedSeq: seqOf(event) });
    }
  }
  return [...rows.values()];
}

/** The admitted prompts not yet promoted, with what is needed to retry their admission exactly. */
export function pendingAdmissions(events: DurableEvent[]): { id: string; prompt: unknown; delivery: string }[] {
  const pending = new Map<string, { id: string; prompt: unknown; delivery: string }>();
  for (const event of events) {
    const id = str(event.data.messageID);
    if (event.type === 'session.next.prompt.admitted')
      pending.set(id, { id, prompt: event.data.prompt, delivery: str(event.data.delivery) });
    else if (event.type === 'session.next.prompted') pending.delete(id);
  }
  return [...pending.values()];
}

export interface Failure {
  code: 'provider-error' | 'stream-cut' | 'context-overflow';
  message: string;
}

/** A failed provider step is OpenCode's only durable failure record. */
export function failures(events: DurableEvent[]): Failure[] {
  return events.flatMap((event) => {
    if (event.type !== 'session.next.step.failed') return [];
    const message = str((event.data.error as { message?: string } | undefined)?.message);
    const code = /context|overflow|too long|maximum context/i.test(message)
      ? 'context-overflow'
      : /terminated|stream|socket|closed|ended/i.test(message)
        ? 'stream-cut'
        : 'provider-error';
    return [{ code, message }];
  });
}

export function kitEvents(events: DurableEvent[]): { seq: number; type: string; at: string }[] {
  return events.map((event) => ({
    seq: seqOf(event),
    type: event.type,
    at: new Date(event.data.timestamp).toISOString(),
  }));
}

function promptText(prompt: unknown): string {
  return str((prompt as { text?: unknown } | undefined)?.text);
}

/**
 * A tool's text parts as the model is sent them: one per line (bash settles with its output and a
 * part "Command exited with code N.", which request 2 carried as "line 10\nCommand exited ...").
 */
function contentText(content: unknown): string {
  if (!Array.isArray(content)) return '';
  return content
    .flatMap((part: { type?: string; text?: string }) => (part.type === 'text' ? [part.text ?? ''] : []))
    .join('\n');
}

/**
 * OpenCode's `read` pages in the shape the protocol's read results take: a text page
 * `{type: "text-page", content, offset, next?}` as `{encoding: "utf-8", content, offset, next}`, a
 * directory page `{entries: [{path: "beta/", type}], next?}` as `{entries: [{name: "beta", type}],
 * next}`, a whole file `{content, encoding: "utf8"}` as one page; `next` is null on the last page.
 */
function readPage(structured: unknown): unknown {
  const page = structured as {
    type?: string;
    content?: string;
    offset?: number;
    next?: number;
    encoding?: string;
    entries?: { path: string; type: string }[];
  };
  const next = page.next ?? null;
  if (page.type === 'text-page') return { encoding: 'utf-8', content: page.content, offset: page.offset, next };
  // A read without offset or limit gives the whole file as a resource, unpaged.
  if (typeof page.content === 'string' && page.encoding !== undefined)
    return { encoding: page.encoding === 'utf8' ? 'utf-8' : page.encoding, content: page.content, next };
  if (Array.isArray(page.entries))
    return { entries: page.entries.map((entry) => ({ name: entry.path.replace(/\/$/, ''), type: entry.type })), next };
  return structured;
}
