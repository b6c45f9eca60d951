import { readStoreSnapshot, type SessionSnapshot } from '../../../harness/store/store-snapshot.js';
import { KitInputError } from '../../../harness/input-error.js';
import { ExitCode } from '../../exit-codes.js';
import { formatTable } from '../../text-table.js';
import type { InspectArgs } from './command.js';

export function inspect(args: InspectArgs): number {
  const snapshot = readStoreSnapshot(args.store, args.session);
  if (args.session && snapshot.sessions.length === 0)
    throw new KitInputError('--session', `the store has no session "${args.session}"`);
  if (args.json) {
    process.stdout.write(`${JSON.stringify(snapshot, null, 2)}\n`);
    return ExitCode.Passed;
  }
  const lines = [`store: ${snapshot.store} · ${snapshot.sessions.length} session(s)`];
  for (const session of snapshot.sessions) lines.push('', ...sessionText(session));
  process.stdout.write(`${lines.join('\n')}\n`);
  return ExitCode.Passed;
}

function sessionText(session: SessionSnapshot): string[] {
  const { id, events, inbox, history, epoch, ...columns } = session;
  const lines = [`session ${id}`, ...Object.entries(columns).map(([key, value]) => `  ${key}: ${value ?? '(none)'}`)];
  lines.push(
    '',
    `events (${events.length})`,
    ...indent(
      formatTable(
        ['seq', 'at', 'type', 'data'],
        events.map((e) => [e.seq, e.at, e.type, withoutType(e.data)]),
      ),
    ),
  );
  lines.push(
    '',
    `inbox (${inbox.length})`,
    ...indent(
      formatTable(
        ['message', 'delivery', 'admitted', 'promoted', 'prompt'],
        inbox.map((row) => [
          row.messageId,
          row.delivery,
          row.admittedSeq,
          row.promotedSeq ?? 'pending',
          promptText(row.prompt),
        ]),
      ),
    ),
  );
  lines.push(
    '',
    `history (${history.length})`,
    ...indent(
      formatTable(
        ['seq', 'role', 'status', 'hidden', 'content'],
        history.map((m) => [m.seq, m.role, m.status, m.hidden ? 'yes' : '', content(m)]),
      ),
    ),
  );
  if (epoch) {
    const parts = Array.isArray(epoch.baseline) ? epoch.baseline : [epoch.baseline];
    const baseline = parts.flatMap((part, i) => [
      ...(i > 0 ? ['    ├'] : []),
      ...String(part)
        .split('\n')
        .map((line) => `    │ ${line}`),
    ]);
    lines.push('', 'context epoch', '  baseline:', ...baseline, `  snapshot: ${JSON.stringify(epoch.snapshot)}`);
  }
  return lines;
}

/** An event's data repeats its type, which has its own column. */
function withoutType(data: unknown): unknown {
  if (typeof data !== 'object' || data === null) return data;
  const { type: _type, ...rest } = data as Record<string, unknown>;
  return rest;
}

function indent(lines: string[]): string[] {
  return lines.map((line) => `  ${line}`);
}

/** What a stored message says, in a few words: its text, its tool calls, or a tool's output. */
function content(message: Record<string, unknown>): string {
  const body = (message.body ?? {}) as Record<string, unknown>;
  const calls = (body.toolCalls as { name: string; input: string }[] | undefined) ?? [];
  if (message.role === 'user') return promptText(body);
  if (message.role === 'tool') return `${body.name}(${body.input ?? ''}) → ${body.output ?? '…'}`;
  if (calls.length > 0)
    return `${body.text ? `${body.text} ` : ''}calls ${calls.map((call) => `${call.name}(${call.input})`).join(', ')}`;
  return String(body.text ?? JSON.stringify(body));
}

function promptText(prompt: unknown): string {
  const parts = (prompt as { parts?: { text?: string }[] } | undefined)?.parts;
  return Array.isArray(parts) ? parts.map((part) => part.text ?? '').join('\n') : JSON.stringify(prompt);
}
