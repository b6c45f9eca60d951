import type { ModelVisibleMessage } from '../provider/captured-request.js';
import { sameMessage, sameStrings, turnStates, type Projection, type TurnState } from './projection.js';

/** Where two projections first part ways, with both turns in full to show it. */
export type FirstDifference =
  | { turn: number; part: 'turn'; onlyIn: 'a' | 'b'; state: TurnState }
  | { turn: number; part: 'baseline' | 'tools'; a: TurnState; b: TurnState }
  /** `message` counts from 1; one side may have no message there. */
  | { turn: number; part: 'messages'; message: number; a: TurnState; b: TurnState };

export interface ProjectionComparison {
  equal: boolean;
  turns: { a: number; b: number };
  first: FirstDifference | undefined;
  /** Every turn on which the two differ, in order. */
  differingTurns: number[];
}

/**
 * Compares two projections turn by turn in one pass. The index up to which the two conversations
 * agree is carried from turn to turn, so each turn costs what it added, not its whole length.
 */
export function compareProjections(a: Projection, b: Projection): ProjectionComparison {
  const [statesA, statesB] = [turnStates(a), turnStates(b)];
  const differingTurns: number[] = [];
  let first: FirstDifference | undefined;
  let agreed = 0;
  let baselinesEqual = true;
  let toolsEqual = true;
  for (let turn = 1; ; turn++) {
    const [nextA, nextB] = [statesA.next(), statesB.next()];
    if (nextA.done && nextB.done) break;
    if (nextA.done || nextB.done) {
      differingTurns.push(turn);
      first ??= {
        turn,
        part: 'turn',
        onlyIn: nextA.done ? 'b' : 'a',
        state: copy((nextA.done ? nextB : nextA).value as TurnState),
      };
      continue;
    }
    const [stateA, stateB] = [nextA.value, nextB.value];
    const [turnA, turnB] = [a.turns[turn - 1]!, b.turns[turn - 1]!];
    if (turnA.baseline || turnB.baseline) baselinesEqual = sameStrings(stateA.baseline, stateB.baseline);
    if (turnA.tools || turnB.tools) toolsEqual = sameStrings(stateA.tools, stateB.tools);
    agreed = Math.min(agreed, turnA.kept, turnB.kept);
    agreed += agreement(stateA.messages, stateB.messages, agreed);
    const messagesEqual = agreed === stateA.messages.length && agreed === stateB.messages.length;
    if (baselinesEqual && toolsEqual && messagesEqual) continue;
    differingTurns.push(turn);
    if (first) continue;
    const part = !baselinesEqual ? 'baseline' : !toolsEqual ? 'tools' : 'messages';
    first =
      part === 'messages'
        ? { turn, part, message: agreed + 1, a: copy(stateA), b: copy(stateB) }
        : { turn, part, a: copy(stateA), b: copy(stateB) };
  }
  return { equal: differingTurns.length === 0, turns: { a: a.turns.length, b: b.turns.length }, first, differingTurns };
}

/** How many more messages agree from `from` on. */
function agreement(a: ModelVisibleMessage[], b: ModelVisibleMessage[], from: number): number {
  let i = from;
  while (i < a.length && i < b.length && sameMessage(a[i]!, b[i]!)) i++;
  return i - from;
}

function copy(state: TurnState): TurnState {
  return { ...state, messages: [...state.messages] };
}
