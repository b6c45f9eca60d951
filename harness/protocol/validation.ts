import { readFileSync } from 'node:fs';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import type { Command, Reply } from '../driver/protocol.js';

const schema = JSON.parse(readFileSync(new URL('./session-runtime-adapter-1.schema.json', import.meta.url), 'utf8'));
const ID = schema.$id as string;

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

/** Checks every message both ways against `session-runtime-adapter-1.schema.json`. */
export class ProtocolValidator {
  private readonly ajv = new Ajv2020({ allErrors: false, strict: false });
  private readonly results = new Map<string, ValidateFunction>();
  private readonly command: ValidateFunction;
  private readonly reply: ValidateFunction;

  constructor() {
    this.ajv.addSchema(schema);
    this.command = this.ajv.getSchema(`${ID}#/$defs/command`)!;
    this.reply = this.ajv.getSchema(`${ID}#/$defs/reply`)!;
  }

  checkCommand(command: Command): void {
    if (!this.command(command)) throw new ProtocolViolation('kit', this.describe(this.command, JSON.stringify(command)));
  }

  /** `reply` as the adapter wrote it, seq included. */
  checkReply(command: Command, reply: Reply & { seq?: unknown }): void {
    const line = JSON.stringify(reply).slice(0, 300);
    if (!this.reply({ seq: 0, ...reply })) {
      throw new ProtocolViolation('adapter', `malformed reply to ${command.cmd}: ${this.describe(this.reply, line)}`);
    }
    if (!reply.ok) return;
    const result = this.resultOf(command.cmd);
    if (!result(reply.result)) {
      throw new ProtocolViolation('adapter', `malformed result of ${command.cmd}: ${this.describe(result, line)}`);
    }
  }

  private resultOf(cmd: string): ValidateFunction {
    let validate = this.results.get(cmd);
    if (!validate) {
      validate = this.ajv.getSchema(`${ID}#/$defs/commands/${cmd}/result`)!;
      this.results.set(cmd, validate);
    }
    return validate;
  }

  private describe(validate: ValidateFunction, line: string): string {
    const error = validate.errors?.[0];
    const where = error?.instancePath || '(top level)';
    return `${where} ${error?.message ?? 'is invalid'} in ${line}`;
  }
}
