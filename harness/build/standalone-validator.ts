import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import type { Ajv2020, FormatDefinition, Options, SchemaObject, ValidateFunction } from 'ajv/dist/2020.js';
import { cacheDirectory, writeAtomically } from './module-bundle.js';

/**
 * Schema validators as standalone code (ajv's own generator), kept with the kit's bundles: compiling
 * a schema costs a process more than checking everything it reads, so a part of a schema is compiled
 * once per schema text and option set, and later processes only load its code. Ajv itself loads only
 * to compile.
 */

/** Ajv's options for each kind of schema the kit has: its input formats, and the adapter protocol. */
const FLAVOURS = {
  input: { strict: true, discriminator: true },
  protocol: { strict: false },
} satisfies Record<string, Options>;

export type SchemaFlavour = keyof typeof FLAVOURS;

const ISO_DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/;

/** The formats the kit's schemas name; the generated code refers to them by name. */
const FORMATS: Record<string, FormatDefinition<string>> = {
  'date-time': { type: 'string', validate: (text) => ISO_DATE_TIME.test(text) && !Number.isNaN(Date.parse(text)) },
};

/** Both the generated code's runtime helpers and ajv resolve from the kit, wherever the code is kept. */
const kitRequire = createRequire(import.meta.url);
const AJV_VERSION: string = kitRequire('ajv/package.json').version;

/**
 * The validator of `ref` (a URI reference into `schema`, by default the schema itself); callers keep
 * the ones they use. The schema is the kit's own and checked against the meta-schema by the unit
 * tests, not here.
 */
export function standaloneValidator(
  flavour: SchemaFlavour,
  schema: SchemaObject & { $id: string },
  ref: string = schema.$id,
): ValidateFunction {
  const key = createHash('sha256')
    .update(`${AJV_VERSION}\0${flavour}\0${ref}\0${Object.keys(FORMATS)}\0${schemaText(schema)}`)
    .digest('hex')
    .slice(0, 24);
  return load(key, () => generate(flavour, schema, ref));
}

const texts = new WeakMap<object, string>();

/** A schema's text, for its key: the protocol's parts are looked up in one large schema. */
function schemaText(schema: object): string {
  let text = texts.get(schema);
  if (text === undefined) {
    text = JSON.stringify(schema);
    texts.set(schema, text);
  }
  return text;
}

/** The validator kept under `key`; generated, and kept where there is a place, when none is (or it fails to load). */
function load(key: string, generateCode: () => string): ValidateFunction {
  const directory = cacheDirectory();
  const file = directory && join(directory, 'validators', `${key}.cjs`);
  if (file) {
    try {
      return evaluate(readFileSync(file, 'utf8'));
    } catch {}
  }
  const code = generateCode();
  const validate = evaluate(code);
  if (file) writeAtomically(file, code);
  return validate;
}

function generate(flavour: SchemaFlavour, schema: SchemaObject, ref: string): string {
  const { Ajv2020: Ajv, _ }: typeof import('ajv/dist/2020.js') = kitRequire('ajv/dist/2020.js');
  const standaloneCode: typeof import('ajv/dist/standalone/index.js').default =
    kitRequire('ajv/dist/standalone/index.js').default;
  const ajv: Ajv2020 = new Ajv({
    allErrors: false,
    validateSchema: false,
    ...FLAVOURS[flavour],
    code: { source: true, formats: _`formats` },
  });
  for (const [name, format] of Object.entries(FORMATS)) ajv.addFormat(name, format);
  ajv.addSchema(schema);
  const validate = ajv.getSchema(ref);
  if (!validate) throw new Error(`no schema at ${ref}`);
  return standaloneCode(ajv, validate);
}

/** Runs generated CommonJS code with the kit's `require` and formats; returns what it exports. */
function evaluate(code: string): ValidateFunction {
  const module = { exports: {} as { default?: ValidateFunction } };
  new Function('require', 'module', 'exports', 'formats', code)(kitRequire, module, module.exports, FORMATS);
  if (typeof module.exports.default !== 'function') throw new Error('the generated validator exports no function');
  return module.exports.default;
}
