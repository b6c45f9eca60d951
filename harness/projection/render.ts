import type { CapturedRequest, ModelVisibleMessage } from '../provider/captured-request.js';
import {
  advanceTurnState,
  projectRequests,
  type ProjectedTurn,
  type Projection,
  type TurnState,
} from './projection.js';

const ROLE_WIDTH = 9;
/** The indent of a message's lines after its first, below its text. */
const CONTINUATION = ' '.repeat(ROLE_WIDTH + 2);

/**
 * One message as the model saw it, one or more lines: its role, any replayed reasoning (`…`), its
 * text, one line per image or file it carries (`▣ image/png`), then one line per tool call
 * (`→ name input [id]`); a tool result starts with the call it answers.
 */
export function formatMessage(message: ModelVisibleMessage): string[] {
  const text = visible(message.toolCallId ? `[${message.toolCallId}] ${message.text}` : message.text);
  const lines: string[] = [];
  if (message.reasoning) for (const line of visible(message.reasoning.text).split('\n')) lines.push(`… ${line}`);
  const media = message.mediaTypes ?? [];
  if (!(text === '' && (message.toolCalls?.length || message.reasoning || media.length)))
    // A message of no text at all says so: a blank line reads as nothing shown.
    lines.push(...(text === '' ? ['(empty)'] : text.split('\n')));
  for (const type of media) lines.push(`▣ ${type}`);
  for (const call of message.toolCalls ?? []) lines.push(`→ ${call.name} ${call.input} [${call.id}]`);
  return lines.map((line, i) => (i === 0 ? `${message.role.padEnd(ROLE_WIDTH)}  ${line}` : `${CONTINUATION}${line}`));
}

const BASELINE_LINE = '  │ ';

function formatBaseline(baseline: string[]): string[] {
  if (baseline.length === 0) return ['baseline: none'];
  return [
    'baseline:',
    ...baseline.flatMap((part) =>
      visible(part)
        .split('\n')
        .map((line) => `${BASELINE_LINE}${line}`),
    ),
  ];
}

/**
 * Text with its control characters (but line breaks and tabs) written as escapes: a tool may return
 * raw bytes, which would otherwise reach a terminal or a report as they are.
 */
export function visible(text: string): string {
  return text.replace(
    /[\u0000-\u0008\u000b-\u001f\u007f]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}

/**
 * The projection turn by turn. By default a turn lists what changed since the previous one (the
 * baseline and tools when they changed, then the new messages); `full` lists everything each time.
 */
export function* renderProjection(projection: Projection, full: boolean): Generator<string> {
  const renderer = new TurnRenderer(full);
  for (const turn of projection.turns) yield* renderer.render(turn);
}

/**
 * Renders turns one at a time, in order, so that a replay can print each as it arrives. It holds
 * only the current turn's conversation.
 */
export class TurnRenderer {
  private readonly state: TurnState = { turn: 0, baseline: [], tools: [], messages: [] };

  constructor(private readonly full: boolean) {}

  *render(turn: ProjectedTurn): Generator<string> {
    const { state, full } = this;
    const previousLength = state.messages.length;
    advanceTurnState(state, turn);
    const showTools = full || turn.tools !== undefined;
    yield `turn ${turn.turn}${showTools ? ` · tools: ${state.tools.join(', ') || 'none'}` : ''}`;
    if (full || turn.baseline !== undefined) yield* indented(formatBaseline(state.baseline));
    if (!full && turn.turn > 1) yield `  ┆ ${keptNote(turn.kept, previousLength, turn.turn - 1)}`;
    for (const message of full ? state.messages : turn.added) yield* indented(formatMessage(message));
  }
}

function keptNote(kept: number, previousLength: number, previousTurn: number): string {
  const plural = (n: number) => `${n} message${n === 1 ? '' : 's'}`;
  return kept === previousLength
    ? `${plural(kept)} as in turn ${previousTurn}`
    : `${kept} of turn ${previousTurn}'s ${plural(previousLength)} kept`;
}

function* indented(lines: string[]): Generator<string> {
  for (const line of lines) yield `  ${line}`;
}

/** One provider request in full, headed by its number: everything the model was sent on it. */
export function renderRequest(request: CapturedRequest, of: number): string[] {
  const [header = '', ...rest] = renderProjection(projectRequests([request], '', ''), true);
  return [header.replace(/^turn 1/, `request ${request.index} of ${of}`), ...rest];
}

/**
 * The lines of a rendered request a failure most likely concerns: its heading, the size of its
 * baseline, and the last lines of its conversation.
 */
export function requestExcerpt(rendered: string, last = 8): string[] {
  const [heading = '', ...body] = rendered.split('\n');
  const baseline = body.filter((line) => line.startsWith(`  ${BASELINE_LINE}`)).length;
  const conversation = body.filter((line) => !line.startsWith('  baseline:') && !line.startsWith(`  ${BASELINE_LINE}`));
  const above = conversation.length - last;
  return [
    heading,
    `  baseline: ${baseline} line(s)`,
    ...(above > 0 ? [`  ┆ ${above} line(s) above`] : []),
    ...(conversation.length === 0 ? ['  (no messages)'] : conversation.slice(-last).map((line) => clipped(line))),
  ];
}

/** A line of evidence cut to a readable length: a request may carry a whole file. */
export function clipped(line: string, max = 240): string {
  return line.length > max ? `${line.slice(0, max)} … (${line.length - max} more characters)` : line;
}
