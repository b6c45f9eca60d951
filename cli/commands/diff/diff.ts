import { readProjection } from '../../../harness/projection/projection-file.js';
import {
  compareProjections,
  type FirstDifference,
  type ProjectionComparison,
} from '../../../harness/projection/projection-diff.js';
import { ExitCode } from '../../exit-codes.js';
import { paletteFor } from '../../colour.js';
import { describeComparison } from './difference-text.js';
import type { DiffArgs } from './command.js';

export function diff(args: DiffArgs): number {
  const [a, b] = [readProjection(args.a), readProjection(args.b)];
  const comparison = compareProjections(a, b);
  const text = args.json
    ? `${JSON.stringify(comparisonDocument(comparison, args), null, 2)}\n`
    : describeComparison(
        comparison,
        { a: `${args.a} · ${a.runtime}`, b: `${args.b} · ${b.runtime}` },
        paletteFor(process.stdout),
      );
  process.stdout.write(text);
  return comparison.equal ? ExitCode.Passed : ExitCode.ConformanceFailure;
}

/** The comparison for machines: the first difference carries only the values that differ. */
function comparisonDocument(comparison: ProjectionComparison, args: DiffArgs) {
  return {
    equal: comparison.equal,
    a: { file: args.a, turns: comparison.turns.a },
    b: { file: args.b, turns: comparison.turns.b },
    firstDifference: comparison.first ? differingValues(comparison.first) : null,
    differingTurns: comparison.differingTurns,
  };
}

function differingValues(first: FirstDifference) {
  switch (first.part) {
    case 'turn':
      return { turn: first.turn, part: first.part, onlyIn: first.onlyIn };
    case 'baseline':
    case 'tools':
      return { turn: first.turn, part: first.part, a: first.a[first.part], b: first.b[first.part] };
    case 'messages':
      return {
        turn: first.turn,
        part: first.part,
        message: first.message,
        a: first.a.messages[first.message - 1] ?? null,
        b: first.b.messages[first.message - 1] ?? null,
      };
  }
}
