import { readFileSync, readdirSync } from 'node:fs';

/**
 * The protocol's schema is written as one file per command (`schema/commands/<cmd>.schema.json`,
 * its `request` and `result` under `$defs`), the shared definitions they refer to
 * (`schema/definitions/`), and the lines that carry them (`schema/protocol.schema.json`). This
 * composes them into the one document the validator compiles and implementers read: shared
 * definitions under `$defs`, each command under `$defs.commands`, and `$defs.command` one of
 * the requests.
 */

const SCHEMA_DIR = new URL('./schema/', import.meta.url);

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type Schema = { [key: string]: Json };
type CommandSchemas = { request: Schema; result: Schema };

export interface ProtocolSchema extends Schema {
  $id: string;
  $defs: { [name: string]: Json } & { commands: Record<string, CommandSchemas> };
}

function read(relative: string): Schema {
  return JSON.parse(readFileSync(new URL(relative, SCHEMA_DIR), 'utf8'));
}

function definitions(file: string): { [name: string]: Json } {
  const defs = read(file).$defs;
  if (typeof defs !== 'object' || defs === null || Array.isArray(defs)) throw new Error(`${file}: no $defs`);
  return defs;
}

function filesIn(directory: string): string[] {
  return readdirSync(new URL(directory, SCHEMA_DIR))
    .filter((file) => file.endsWith('.schema.json'))
    .sort()
    .map((file) => `${directory}${file}`);
}

/** A reference to another file's definition becomes a reference within the composed document. */
function localRefs<T extends Json>(node: T, file: string, defined: ReadonlySet<string>): T {
  if (typeof node !== 'object' || node === null) return node;
  if (Array.isArray(node)) return node.map((item) => localRefs(item, file, defined)) as T;
  const entries = Object.entries(node).map(([key, value]) => {
    if (key !== '$ref' || typeof value !== 'string') return [key, localRefs(value, file, defined)];
    const local = value.replace(/^[\w./-]*\.schema\.json#/, '#');
    const name = /^#\/\$defs\/([\w-]+)$/.exec(local)?.[1];
    if (name === undefined || !defined.has(name)) throw new Error(`${file}: unresolved $ref ${value}`);
    return [key, local];
  });
  return Object.fromEntries(entries) as T;
}

/** The protocol's command names, one per schema file under `schema/commands/`. */
export function commandNames(): string[] {
  return filesIn('commands/').map((file) => file.slice('commands/'.length, -'.schema.json'.length));
}

/**
 * Whether `name` is a part of the command `cmd` (`prompt.admit.held` of `prompt.admit`), or the
 * command itself: a command of its own (`events.subscribe`) is no part of another (`events`).
 */
export function isPartOfCommand(name: string, cmd: string): boolean {
  if (name === cmd) return true;
  commands ??= new Set(commandNames());
  return name.startsWith(`${cmd}.`) && !commands.has(name);
}
let commands: Set<string> | undefined;

/**
 * The parts of its command a request asks for (`prompt.admit.held` for an admission with `resume:
 * false`), as its schema marks them: a field's `x-part` names the part a value of it stands for.
 */
export function partsRequested(request: { cmd: string }): string[] {
  const properties = (read(`commands/${request.cmd}.schema.json`).$defs as { request?: { properties?: Schema } })
    .request?.properties;
  return Object.entries(properties ?? {}).flatMap(([field, schema]) => {
    const part = (schema as { 'x-part'?: { when: Json; name: string } })['x-part'];
    return part && (request as Record<string, unknown>)[field] === part.when ? [part.name] : [];
  });
}

/** Reads and composes the schema files; throws when they do not fit together. */
export function protocolSchema(): ProtocolSchema {
  const root = read('protocol.schema.json');
  const owner = new Map<string, string>();
  const shared: { [name: string]: Json } = {};
  for (const file of ['protocol.schema.json', ...filesIn('definitions/')]) {
    for (const [name, schema] of Object.entries(definitions(file))) {
      if (owner.has(name)) throw new Error(`${file}: ${name} is already defined in ${owner.get(name)}`);
      owner.set(name, file);
      shared[name] = schema;
    }
  }

  const commands: Record<string, CommandSchemas> = {};
  for (const file of filesIn('commands/')) {
    const cmd = file.slice('commands/'.length, -'.schema.json'.length);
    const { request, result } = definitions(file) as Partial<CommandSchemas>;
    const named = (request?.properties as { cmd?: { const?: Json } } | undefined)?.cmd?.const;
    if (!request || named !== cmd || !result)
      throw new Error(`${file}: needs $defs.request with cmd const ${cmd}, and $defs.result`);
    commands[cmd] = { request, result };
  }

  const defined = new Set([...owner.keys(), 'commands']);
  const $defs: { [name: string]: Json } = {};
  for (const [name, schema] of Object.entries(shared)) $defs[name] = localRefs(schema, owner.get(name)!, defined);
  // The source says what a command is; which commands there are is the files of commands/.
  const { $comment: _, ...command } = $defs.command as Schema;
  $defs.command = {
    ...command,
    oneOf: Object.keys(commands).map((cmd) => ({ $ref: `#/$defs/commands/${cmd}/request` })),
  };
  $defs.commands = localRefs(commands, 'commands/', defined);
  return { ...root, $id: String(root.$id), $defs: $defs as ProtocolSchema['$defs'] };
}
