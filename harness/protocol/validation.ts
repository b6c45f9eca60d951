import type { ValidateFunction } from 'ajv/dist/2020.js';
import { standaloneValidator } from '../build/standalone-validator.js';
import type { Command, Reply } from './protocol.js';
import { protocolSchema, type ProtocolSchema } from './protocol-schema.js';

/**
 * A message broke the protocol schema. `side` says whose bug it is: a malformed command is the
 * kit's, a malformed reply is the adapter's.
 */
export class ProtocolViolation extends Error {
  constructor(
    readonly side: 'kit' | 'adapter',
    detail: string,
  ) {
    super(side === 'kit' ? `kit bug: the kit sent a malformed command: ${detail}` : `adapter bug: ${detail}`);
    this.name = 'ProtocolViolation';
  }
}

let shared: ProtocolValidator | undefined;

/**
 * The process's one validator. Compiling the schema costs far more than a scenario's messages, so
 * every driver in a process shares it; it holds no state between checks.
 */
export function sharedValidator(): ProtocolValidator {
  shared ??= new ProtocolValidator();
  return shared;
}

/**
 * Checks every message both ways against the protocol's schema, composed from its files. Each part
 * of the schema is compiled when a message first needs it.
 */
export class ProtocolValidator {
  private readonly compiled = new Map<string, ValidateFunction>();
  private readonly schema: ProtocolSchema = protocolSchema();

  checkCommand(command: Command): void {
    // A command is valid exactly when its own request schema accepts it (`cmd` picks one branch
    // of `command`), and that is a small part to compile; an unknown `cmd` needs the whole union.
    const known = Object.hasOwn(this.schema.$defs.commands, command.cmd);
    const validate = this.part(known ? `commands/${command.cmd}/request` : 'command');
    if (!validate(command)) throw new ProtocolViolation('kit', this.describe(validate, JSON.stringify(command)));
  }

  /** `reply` as the adapter wrote it, seq included. */
  checkReply(command: Command, reply: Reply & { seq?: unknown }): void {
    const line = JSON.stringify(reply).slice(0, 300);
    const validate = this.part('reply');
    if (!validate({ seq: 0, ...reply })) {
      throw new ProtocolViolation('adapter', `malformed reply to ${command.cmd}: ${this.describe(validate, line)}`);
    }
    if (!reply.ok) return;
    const result = this.part(`commands/${command.cmd}/result`);
    if (!result(reply.result)) {
      throw new ProtocolViolation('adapter', `malformed result of ${command.cmd}: ${this.describe(result, line)}`);
    }
  }

  /** `path` below the schema's `$defs`. */
  private part(path: string): ValidateFunction {
    let validate = this.compiled.get(path);
    if (!validate) {
      validate = standaloneValidator('protocol', this.schema, `${this.schema.$id}#/$defs/${path}`);
      this.compiled.set(path, validate);
    }
    return validate;
  }

  /**
   * The error that says most: of the branches a reply could have matched (a result or an error),
   * the deepest complaint is about the branch the message meant, e.g. `/error/code` rather than a
   * missing `result`. An enum names the values it allows.
   */
  private describe(validate: ValidateFunction, line: string): string {
    const depth = (path: string) => path.split('/').length;
    const error = (validate.errors ?? []).reduce<(typeof validate.errors & object)[number] | undefined>(
      (best, next) => (!best || depth(next.instancePath) > depth(best.instancePath) ? next : best),
      undefined,
    );
    const where = error?.instancePath || '(top level)';
    const allowed = error?.keyword === 'enum' ? ` (${(error.params.allowedValues as unknown[]).join(', ')})` : '';
    return `${where} ${error?.message ?? 'is invalid'}${allowed} in ${line}`;
  }
}
