import { readFileSync } from 'node:fs';
import type { ErrorObject, ValidateFunction } from 'ajv/dist/2020.js';
import { standaloneValidator } from '../build/standalone-validator.js';
import { KitInputError } from '../input-error.js';
import { displayPath, readInputText } from './input-file.js';
import { offsetOf, scanJson } from './json-scan.js';

/** A JSON file the kit reads: where it is, its text (for line numbers) and its parsed value. */
export interface JsonInput {
  file: string;
  text: string;
  value: unknown;
}

/** Deeper than any input the kit writes; deeper still would only exhaust the stack of what reads it. */
export const MAX_JSON_DEPTH = 64;

/**
 * Reads and parses a JSON file; a syntax error names the line and column. The text is scanned
 * (which costs more than parsing it) only to say where it is wrong.
 */
export function readJsonInput(path: string): JsonInput {
  const file = displayPath(path);
  const text = readInputText(path);
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    const scan = scanJson(text, { maxDepth: MAX_JSON_DEPTH });
    if (scan.tooDeepAt !== undefined) throw tooDeep(file, text, scan.tooDeepAt);
    const message = (error as Error).message;
    const offset = Number(/at position (\d+)/.exec(message)?.[1] ?? scan.errorAt ?? text.length);
    // V8 quotes the whole input in some messages; the line and column say where instead.
    const reason = message
      .replace(/ in JSON at position \d+[\s\S]*$/, '')
      .replace(/^(Unexpected token '[^']*'),[\s\S]*$/, '$1');
    throw new KitInputError(`${file}:${lineAndColumn(text, offset)}`, `not valid JSON (${reason})`);
  }
  if (nestsDeeperThan(value, MAX_JSON_DEPTH)) {
    throw tooDeep(file, text, scanJson(text, { maxDepth: MAX_JSON_DEPTH }).tooDeepAt ?? 0);
  }
  return { file, text, value };
}

function tooDeep(file: string, text: string, offset: number): KitInputError {
  return new KitInputError(`${file}:${lineAndColumn(text, offset)}`, `nested more than ${MAX_JSON_DEPTH} levels deep`);
}

/**
 * Whether arrays and objects nest more than `max` deep in `root`, walked without recursion. It runs
 * once per input, mostly before V8 optimises it, so it allocates nothing per container it visits.
 */
function nestsDeeperThan(root: unknown, max: number): boolean {
  const containers: object[] = [];
  const depths: number[] = [];
  const visit = (value: unknown, depth: number) => {
    if (typeof value !== 'object' || value === null) return;
    containers.push(value);
    depths.push(depth);
  };
  visit(root, 1);
  while (containers.length > 0) {
    const value = containers.pop()!;
    const depth = depths.pop()!;
    if (depth > max) return true;
    if (Array.isArray(value)) for (let i = 0; i < value.length; i++) visit(value[i], depth + 1);
    else for (const key in value) visit((value as Record<string, unknown>)[key], depth + 1);
  }
  return false;
}

function lineAndColumn(text: string, offset: number): string {
  const lineStart = text.lastIndexOf('\n', offset - 1) + 1;
  return `${lineNumber(text, offset)}:${offset - lineStart + 1}`;
}

/** The 1-based line of `offset`, counted without copying the text. */
function lineNumber(text: string, offset: number): number {
  let line = 1;
  for (let at = text.indexOf('\n'); at !== -1 && at < offset; at = text.indexOf('\n', at + 1)) line += 1;
  return line;
}

/** A schema's validator, compiled when first asked for. */
export type InputSchema = () => ValidateFunction;

/**
 * One of the kit's JSON Schema files, found next to the module that reads that format. Modules
 * declare theirs at import; it is compiled only once an input of that format is read.
 */
export function compileSchema(url: URL): InputSchema {
  let validate: ValidateFunction | undefined;
  return () => (validate ??= standaloneValidator('input', JSON.parse(readFileSync(url, 'utf8'))));
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

/**
 * `timeline[2].delivery`, the way a person would point at the field; a key that is no plain name
 * (a line break in it, say) is quoted, so the error stays one line.
 */
function fieldName(path: (string | number)[]): string {
  if (path.length === 0) return '(the whole file)';
  return path
    .map((part, i) =>
      typeof part === 'number'
        ? `[${part}]`
        : !/^[\w$@:-]+$/.test(part)
          ? `[${JSON.stringify(part)}]`
          : i === 0
            ? part
            : `.${part}`,
    )
    .join('');
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

/** The line of the value at `path` (or of its nearest existing parent), looked for only on error. */
function lineOf(text: string, path: (string | number)[]): number | undefined {
  const offset = offsetOf(text, path);
  return offset === undefined ? undefined : lineNumber(text, offset);
}
