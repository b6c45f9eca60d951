import { RuntimeError } from '../errors.js';

/** A driver command as the kit sends it: plain JSON, its name in `cmd`. */
export type Command = { cmd: string } & Record<string, unknown>;
export type Reply = { ok: true; result: unknown } | { ok: false; error: { code: string; message: string } };

/** Handlers by command name; a handler's value (or `{}` for none) is the command's result. */
export type CommandTable = Record<string, (command: Command) => unknown>;

export function failure(code: string, message: string): Reply {
  return { ok: false, error: { code, message } };
}

/** Runs the command's handler; a RuntimeError is the command's failure, anything else a defect. */
export async function dispatch(table: CommandTable, refused: Set<string>, command: Command): Promise<Reply> {
  const run = table[command.cmd];
  if (!run) return failure('unsupported', `unknown command ${command.cmd}`);
  if (refused.has(command.cmd)) return failure('unsupported', `${command.cmd} is not offered in neutral mode`);
  try {
    return { ok: true, result: (await run(command)) ?? {} };
  } catch (error) {
    if (error instanceof RuntimeError) return failure(error.code, error.message);
    throw error;
  }
}

/** An optional text field: absent and null alike are undefined. */
export function opt(value: unknown): string | undefined {
  return value === undefined || value === null ? undefined : String(value);
}
