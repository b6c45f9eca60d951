import { diffArrays } from 'diff';
import type { FirstDifference, ProjectionComparison } from '../../../harness/projection/projection-diff.js';
import type { TurnState } from '../../../harness/projection/projection.js';
import { formatMessage } from '../../../harness/projection/render.js';
import type { Palette } from '../../colour.js';

/** Messages shown before the first difference, and at most after it, per side. */
const CONTEXT = 3;
const WINDOW = 40;

/** The comparison for people: where the two first differ, that turn's diff, and which turns differ. */
export function describeComparison(
  comparison: ProjectionComparison,
  names: { a: string; b: string },
  paint: Palette,
): string {
  const lines = [`a: ${names.a} · ${comparison.turns.a} turn(s)`, `b: ${names.b} · ${comparison.turns.b} turn(s)`, ''];
  const { first } = comparison;
  if (!first) return `${[...lines, 'equal: the model saw the same on every turn'].join('\n')}\n`;
  lines.push(
    paint.bold(`first difference: ${headline(first)}`),
    paint.dim(`${paint.red('- a')}  ${paint.green('+ b')}`),
    '',
  );
  lines.push(...detail(first, paint));
  const total = Math.max(comparison.turns.a, comparison.turns.b);
  lines.push(
    '',
    `turns that differ: ${ranges(comparison.differingTurns)} (${comparison.differingTurns.length} of ${total})`,
  );
  return `${lines.join('\n')}\n`;
}

function headline(first: FirstDifference): string {
  switch (first.part) {
    case 'turn':
      return `turn ${first.turn}, which only ${first.onlyIn} has`;
    case 'baseline':
      return `turn ${first.turn}, the baseline`;
    case 'tools':
      return `turn ${first.turn}, the tools offered`;
    case 'messages':
      return `turn ${first.turn}, message ${first.message} (${first.a.messages[first.message - 1]?.role ?? 'none'} in a, ${first.b.messages[first.message - 1]?.role ?? 'none'} in b)`;
  }
}

function detail(first: FirstDifference, paint: Palette): string[] {
  switch (first.part) {
    case 'turn': {
      const shown = first.state.messages.slice(-WINDOW).map(messageText);
      return [
        `turn ${first.turn} in ${first.onlyIn}:`,
        ...changeLines([{ value: shown, added: first.onlyIn === 'b', removed: first.onlyIn === 'a' }], paint),
      ];
    }
    case 'baseline':
    case 'tools':
      return [
        `turn ${first.turn}, ${first.part}:`,
        ...changeLines(diffArrays(first.a[first.part], first.b[first.part]), paint),
      ];
    case 'messages':
      return messageDiff(first.turn, first.message - 1, first.a, first.b, paint);
  }
}

function messageDiff(turn: number, index: number, a: TurnState, b: TurnState, paint: Palette): string[] {
  const from = Math.max(0, index - CONTEXT);
  const window = (state: TurnState) => state.messages.slice(from, index + WINDOW).map(messageText);
  const lines = [`turn ${turn}:`];
  if (from > 0) lines.push(paint.dim(`  ┆ messages 1-${from} are the same`));
  lines.push(...changeLines(diffArrays(window(a), window(b)), paint));
  const rest = (state: TurnState) => Math.max(0, state.messages.length - index - WINDOW);
  if (rest(a) + rest(b) > 0) lines.push(paint.dim(`  ┆ and ${rest(a)} more message(s) in a, ${rest(b)} in b`));
  return lines;
}

interface Change {
  value: string[];
  added?: boolean;
  removed?: boolean;
}

/** Unchanged runs longer than twice the context are cut in the middle. */
function changeLines(changes: Change[], paint: Palette): string[] {
  return changes.flatMap(({ value, added, removed }) => {
    if (added || removed) {
      const [mark, colour] = added ? ['+', paint.green] : ['-', paint.red];
      return value.flatMap((item) => item.split('\n').map((line) => colour(`${mark} ${line}`)));
    }
    const same = (items: string[]) => items.flatMap((item) => item.split('\n').map((line) => paint.dim(`  ${line}`)));
    if (value.length <= 2 * CONTEXT) return same(value);
    return [
      ...same(value.slice(0, CONTEXT)),
      paint.dim(`  ┆ ${value.length - 2 * CONTEXT} more the same`),
      ...same(value.slice(-CONTEXT)),
    ];
  });
}

function messageText(message: TurnState['messages'][number]): string {
  return formatMessage(message).join('\n');
}

/** `2-4, 7`: turn numbers as ranges, short even when thousands differ. */
function ranges(turns: number[]): string {
  const parts: string[] = [];
  for (let i = 0; i < turns.length; i++) {
    const start = turns[i]!;
    while (turns[i + 1] === turns[i]! + 1) i++;
    parts.push(start === turns[i] ? `${start}` : `${start}-${turns[i]}`);
  }
  return parts.join(', ');
}
