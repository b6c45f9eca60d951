import type { HistoryMessage } from '../../../harness/protocol/protocol.generated.js';
import type { ClassicEvent, ClassicMessage, ClassicPart } from './classic-api.js';

/** The text part OpenCode's compaction appends after a summary so the loop goes on (`metadata.compaction_continue`). */
const isContinuePart = (part: ClassicPart) => part.type === 'text' && part.metadata?.compaction_continue === true;

/** The kit's metadata of a prompt rides on its text part, which a replay copies whole. */
export const KIT_METADATA = 'kitMetadata';

/**
 * The kit's view of a classic session's messages (all of them, or the consecutive ones of a page).
 * A user message holding a compaction part is the request for a compaction, not a prompt; the
 * summary assistant message answering it is the compaction. A message's creation time (ms), by
 * which OpenCode orders its messages, stands in for a sequence number: the same on every page and
 * in the whole history, since the messages carry no sequence of their own.
 */
export function history(messages: ClassicMessage[], kitIds: ReadonlyMap<string, string>) {
  return messages.flatMap((message): HistoryMessage[] => {
    const { info, parts } = message;
    const seq = info.time.created;
    const id = kitIds.get(info.id) ?? info.id;
    if (info.role === 'user') {
      if (parts.some((part) => part.type === 'compaction')) return [];
      const texts = parts.filter((part) => part.type === 'text' && !part.ignored);
      const continuation = parts.some(isContinuePart);
      const metadata = texts.find((part) => part.metadata?.[KIT_METADATA] !== undefined)?.metadata?.[KIT_METADATA];
      return [
        {
          id,
          seq,
          role: 'user' as const,
          // OpenCode's transcript leaves synthetic text out; a message of synthetic text alone shows nothing.
          hidden: texts.length > 0 && texts.every((part) => part.synthetic === true),
          text: texts.map((part) => part.text ?? '').join('\n'),
          ...(metadata === undefined ? {} : { metadata: metadata as Record<string, unknown> }),
          ...(continuation ? { continuation: true } : {}),
          ...promptAttachments(parts),
        },
      ];
    }
    const text = parts
      .filter((part) => part.type === 'text')
      .map((part) => part.text ?? '')
      .join('');
    if (info.summary) return [{ id, seq, role: 'compaction' as const, hidden: false, text }];
    const tools = parts.filter((part) => part.type === 'tool' && part.state);
    return [
      {
        id,
        seq,
        role: 'assistant' as const,
        hidden: false,
        status: info.error
          ? ('failed' as const)
          : info.time.completed
            ? ('completed' as const)
            : ('streaming' as const),
        text,
        toolCalls: tools.map((part) => ({
          callId: part.callID ?? part.id,
          name: part.tool ?? '',
          input: JSON.stringify(part.state!.input ?? {}),
        })),
      },
      ...tools.map((part) => toolMessage(part, id, seq)),
    ];
  });
}

function toolMessage(part: ClassicPart, assistantMessageId: string, seq: number): HistoryMessage {
  const state = part.state!;
  const status =
    state.status === 'completed'
      ? ('success' as const)
      : state.status === 'error'
        ? state.metadata?.interrupted === true
          ? ('interrupted' as const)
          : ('error' as const)
        : ('running' as const);
  const output =
    state.status === 'completed' ? (state.output ?? '') : state.status === 'error' ? (state.error ?? '') : null;
  return {
    id: part.id,
    seq,
    role: 'tool' as const,
    hidden: false,
    status,
    assistantMessageId,
    callId: part.callID ?? part.id,
    name: part.tool ?? '',
    output,
    ...(typeof state.metadata?.outputPath === 'string' ? { outputPath: state.metadata.outputPath } : {}),
    ...(state.time?.compacted ? { pruned: true } : {}),
    ...attachmentsOf(state),
  };
}

/**
 * The files a completed tool returned beside its output, as the tool part keeps them
 * (`state.attachments`, each a file part whose `url` is a base64 data URL); a pruned part keeps them too.
 */
function attachmentsOf(state: NonNullable<ClassicPart['state']>): Pick<ToolHistoryMessage, 'attachments'> {
  const attachments = (state.attachments ?? []).flatMap((file) => {
    const match = /^data:([^;,]+);base64,(.*)$/s.exec(file.url ?? '');
    if (!match) return [];
    return [
      {
        mediaType: file.mime ?? match[1]!,
        data: match[2]!,
        ...(file.filename === undefined ? {} : { filename: file.filename }),
      },
    ];
  });
  return attachments.length > 0 ? { attachments } : {};
}

type ToolHistoryMessage = Extract<HistoryMessage, { role: 'tool' }>;

/** Each summary message a compaction wrote: completed once finished without error. */
export function compactions(messages: ClassicMessage[]) {
  return messages
    .filter((message) => message.info.role === 'assistant' && message.info.summary)
    .map(({ info, parts }) => {
      if (info.error) return { status: 'failed' as const };
      if (!info.finish) return { status: 'started' as const };
      const summary = parts
        .filter((part) => part.type === 'text')
        .map((part) => part.text ?? '')
        .join('');
      return { status: 'completed' as const, summary };
    });
}

const FAILURE_CODES: Record<string, 'context-overflow' | 'provider-error'> = {
  ContextOverflowError: 'context-overflow',
  APIError: 'provider-error',
  ProviderAuthError: 'provider-error',
  UnknownError: 'provider-error',
};

/** The errors OpenCode recorded on assistant messages, an interruption excepted. */
export function failures(messages: ClassicMessage[]) {
  return messages.flatMap(({ info }) => {
    const error = info.error;
    if (!error || error.name === 'MessageAbortedError') return [];
    const data = error.data ?? {};
    const status = typeof data.statusCode === 'number' ? ` (status ${data.statusCode})` : '';
    return [
      {
        code: FAILURE_CODES[error.name] ?? ('provider-error' as const),
        message: `${error.name}: ${String(data.message ?? '')}${status}`,
      },
    ];
  });
}

/** How far OpenCode's IDs count time: 48 bits of milliseconds times 4096 plus a counter. */
const ID_TIME_SPAN = 2 ** 36;

/**
 * When OpenCode recorded an event, from its ID: OpenCode's ascending IDs begin with 12 hex digits
 * of (milliseconds × 4096 + a counter), cut to 48 bits, so they hold the time modulo 2^36 ms
 * (about 795 days); the latest such time not after `now` is the event's.
 */
export function eventTime(id: string, now: number): number {
  const digits = id.slice(id.indexOf('_') + 1, id.indexOf('_') + 13);
  const low = Number(BigInt(`0x${digits}`) / 4096n);
  return now - ((((now - low) % ID_TIME_SPAN) + ID_TIME_SPAN) % ID_TIME_SPAN);
}

/**
 * The kit's view of OpenCode's durable events: OpenCode numbers a session's events from 0, the kit
 * from 1, so each is numbered one above OpenCode's number (a cursor of the kit's is one below).
 */
export function kitEvents(events: ClassicEvent[], now = Date.now()) {
  return events.map((event) => ({
    seq: event.seq + 1,
    type: event.type,
    at: new Date(eventTime(event.id, now)).toISOString(),
  }));
}

/** A prompt's images and files as OpenCode keeps its file parts: each one's type, name and source. */
function promptAttachments(parts: ClassicPart[]) {
  const attachments = parts
    .filter((part) => part.type === 'file')
    .map((part) => ({
      mediaType: part.mime ?? 'application/octet-stream',
      ...(part.filename === undefined ? {} : { filename: part.filename }),
      ...(part.source?.path === undefined ? {} : { source: part.source.path }),
    }));
  return attachments.length > 0 ? { attachments } : {};
}
