import { readFileSync } from 'node:fs';
import { relative } from 'node:path';
import { Ajv2020, type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';
import { LineCounter, parseDocument } from 'yaml';
import { KitInputError } from '../input-error.js';

/** A JSON file the kit reads: where it is, its text (for line numbers) and its parsed value. */
export interface JsonInput {
  file: string;
  text: string;
  value: unknown;
}

/** How a file is named in messages: relative to where the user stands. */
export function displayPath(path: string): string {
  return relative(process.cwd(), path) || path;
}

/** Reads and parses a JSON file; a syntax error names the line and column. */
export function readJsonInput(path: string): JsonInput {
  const file = displayPath(path);
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw new KitInputError(file, (error as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : (error as Error).message);
  }
  try {
    return { file, text, value: JSON.parse(text) };
  } catch (error) {
    const message = (error as Error).message;
    const offset = Number(/at position (\d+)/.exec(message)?.[1] ?? firstBadOffset(text));
    // V8 quotes the whole input in some messages; the line and column say where instead.
    const reason = message.replace(/ in JSON at position \d+[^]*$/, '').replace(/^(Unexpected token '[^']*'),[^]*$/, '$1');
    throw new KitInputError(`${file}:${lineAndColumn(text, offset)}`, `not valid JSON (${reason})`);
  }
}

/**
 * Where a JSON text stops being the start of a valid document, for the messages that give no
 * position: whether a prefix can still be completed only changes once, so a binary search finds it.
 */
function firstBadOffset(text: string): number {
  const completable = (prefix: string) => {
    try {
      JSON.parse(prefix);
      return true;
    } catch (error) {
      const message = (error as Error).message;
      const at = /at position (\d+)/.exec(message);
      return message.startsWith('Unexpected end of JSON input') || (at !== null && Number(at[1]) >= prefix.length);
    }
  };
  let [good, bad] = [0, text.length];
  while (good < bad) {
    const middle = Math.ceil((good + bad) / 2);
    if (completable(text.slice(0, middle))) good = middle;
    else bad = middle - 1;
  }
  return good;
}

function lineAndColumn(text: string, offset: number): string {
  const before = text.slice(0, offset).split('\n');
  return `${before.length}:${before.at(-1)!.length + 1}`;
}

const ISO_DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/;
let ajv: Ajv2020 | undefined;

function schemaCompiler(): Ajv2020 {
  if (!ajv) {
    ajv = new Ajv2020({ allErrors: false, strict: true, discriminator: true });
    ajv.addFormat('date-time', { type: 'string', validate: (text: string) => ISO_DATE_TIME.test(text) && !Number.isNaN(Date.parse(text)) });
  }
  return ajv;
}

/** A schema's validator, compiled when first asked for. */
export type InputSchema = () => ValidateFunction;

/**
 * One of the kit's JSON Schema files, found next to the module that reads that format. Modules
 * declare theirs at import; it is compiled only once an input of that format is read.
 */
export function compileSchema(url: URL): InputSchema {
  let validate: ValidateFunction | undefined;
  return () => (validate ??= schemaCompiler().compile(JSON.parse(readFileSync(url, 'utf8'))));
}

/**
 * Checks an input against its schema. The first problem becomes a one-line error naming the
 * file, the line and the field, like `script.json:7: timeline[2].delivery: must be one of steer, queue`.
 */
export function checkSchema<T>(input: JsonInput, schema: InputSchema): T {
  const validate = schema();
  if (validate(input.value)) return input.value as T;
  const error = validate.errors![0]!;
  throw inputError(input, errorPath(error), describe(error));
}

/** A problem with one field of an input, named by file, line and field. */
export function inputError(input: JsonInput, path: (string | number)[], detail: string): KitInputError {
  const line = lineOf(input.text, path);
  return new KitInputError(line ? `${input.file}:${line}` : input.file, `${fieldName(path)}: ${detail}`);
}

function errorPath(error: ErrorObject): (string | number)[] {
  const path = error.instancePath
    .split('/')
    .slice(1)
    .map((part) => part.replace(/~1/g, '/').replace(/~0/g, '~'))
    .map((part) => (/^\d+$/.test(part) ? Number(part) : part));
  const field = error.params.missingProperty ?? error.params.additionalProperty;
  return field === undefined ? path : [...path, field];
}

/** `timeline[2].delivery`, the way a person would point at the field. */
function fieldName(path: (string | number)[]): string {
  if (path.length === 0) return '(the whole file)';
  return path.map((part, i) => (typeof part === 'number' ? `[${part}]` : i === 0 ? part : `.${part}`)).join('');
}

function describe(error: ErrorObject): string {
  switch (error.keyword) {
    case 'required':
      return 'is required';
    case 'additionalProperties':
      return 'is not a known field';
    case 'enum':
      return `must be one of ${(error.params.allowedValues as unknown[]).join(', ')}`;
    case 'const':
      return `must be ${JSON.stringify(error.params.allowedValue)}`;
    case 'discriminator':
      return `${JSON.stringify(error.params.tagValue)} is not a known ${error.params.tag}`;
    case 'format':
      return error.params.format === 'date-time' ? 'must be a date and time like 2026-01-15T09:00:00Z' : error.message!;
    default:
      return error.message!;
  }
}

/** The line of the value at `path` (or of its nearest existing parent), read again only on error. */
function lineOf(text: string, path: (string | number)[]): number | undefined {
  const lineCounter = new LineCounter();
  const document = parseDocument(text, { lineCounter });
  for (let length = path.length; length >= 0; length--) {
    const node = document.getIn(path.slice(0, length), true) as { range?: [number, number, number] } | undefined;
    if (node?.range) return lineCounter.linePos(node.range[0]).line;
  }
  return undefined;
}
