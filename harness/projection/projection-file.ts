import { KitInputError } from '../input-error.js';
import { checkSchema, compileSchema, inputError, readJsonInput } from '../input/json-input.js';
import { PROJECTION_FORMAT, type Projection } from './projection.js';

const validate = compileSchema(new URL('./projection.schema.json', import.meta.url));

/** Reads a projection written by `kit replay --out`, refusing one whose turns do not chain. */
export function readProjection(path: string): Projection {
  const input = readJsonInput(path);
  // Another of the kit's files (a session script, a repro bundle): say what it is and what to do.
  const format = (input.value as { format?: unknown } | null)?.format;
  if (typeof format === 'string' && format.startsWith('kit-') && format !== PROJECTION_FORMAT)
    throw inputError(
      input,
      ['format'],
      `"${format}" is not a projection (${PROJECTION_FORMAT}): kit replay <script> --out <file> writes the projection of a script`,
    );
  const projection = checkSchema<Projection>(input, validate);
  let messages = 0;
  projection.turns.forEach((turn, i) => {
    const where = `${input.file}: turns[${i}]`;
    if (turn.turn !== i + 1) throw new KitInputError(where, `turn is ${turn.turn}, expected ${i + 1}`);
    if (turn.kept > messages)
      throw new KitInputError(where, `kept is ${turn.kept}, but the previous turn has ${messages} messages`);
    messages = turn.kept + turn.added.length;
  });
  return projection;
}
