import { createInterface } from 'node:readline';

/**
 * The stdio side of a `session-runtime-adapter/1` adapter written in Node, shared by the adapters
 * that drive a published runtime: newline-delimited JSON requests on stdin, one reply per request
 * on stdout (everything else goes to stderr), each runtime's commands in a table of its own.
 */
export const PROTOCOL = 'session-runtime-adapter/1';

/** A command the runtime refuses, answered with the protocol's error `code`. */
export class Refusal extends Error {
  constructor(code, message) {
    super(message);
    this.code = code;
  }
}

/**
 * A command's result with the names under the hello's `emulated` that this call computed itself
 * (the reply's `emulated`): a command that emulates a part only on some calls says which.
 */
export class EmulatedAnswer {
  /** @param {object | undefined} result @param {string[]} emulated */
  constructor(result, emulated) {
    this.result = result;
    this.emulated = emulated;
  }
}

/**
 * @typedef {object} StdioAdapter
 * @property {string} runtime
 * @property {(config: any) => unknown} hello
 * @property {Record<string, (command: any) => unknown> | ((command: any) => unknown)} commands
 * @property {Record<string, string>} [unsupported]
 * @property {() => Promise<unknown>} [end]
 * @property {() => void} [endNow]
 */

/** A runtime behaviour the protocol cannot express as a reply: the adapter stops and says why. */
export class SilentStop extends Error {
  name = 'SilentStop';
}

/**
 * Serves the protocol until stdin ends. `hello(config)` opens the runtime and describes it (a
 * Refusal it throws answers the hello, and the next hello tries again). A command `unsupported`
 * names is refused with its reason; every other goes to `commands`, a table by command name (a
 * command it lacks is refused as one `runtime` has no equivalent of) or one function serving them
 * all. After `runtime.close`, the next hello opens a new runtime in this process. Requests are
 * served concurrently: a reply waiting on the runtime (idle, gate.wait) blocks no other. A failure
 * that is not a Refusal is the adapter's own: it is written to stderr and ends the process (exit
 * 70), since its state is then unknown. `end()` runs when stdin closes; `endNow()`, when given,
 * runs however the process ends (a signal, an exit, a failure), for what must not outlive it.
 *
 * @param {StdioAdapter} adapter
 */
export function serveStdio({ runtime, hello, commands, unsupported = {}, end = async () => {}, endNow }) {
  let opened;
  async function handle(command) {
    if (command.cmd === 'hello') {
      if (command.protocol !== PROTOCOL) return failure('unsupported', `this adapter speaks ${PROTOCOL} only`);
      opened ??= Promise.resolve().then(() => hello(command.config));
      try {
        return { ok: true, result: await opened };
      } catch (error) {
        opened = undefined;
        throw error;
      }
    }
    if (!opened) return failure('invalid-input', 'the first command must be hello');
    await opened;
    if (command.cmd in unsupported) return failure('unsupported', unsupported[command.cmd]);
    const serve = typeof commands === 'function' ? commands : commands[command.cmd];
    if (!serve) return failure('unsupported', `${runtime} has no equivalent of ${command.cmd}`);
    const answer = await serve(command);
    if (command.cmd === 'runtime.close') opened = undefined;
    if (answer instanceof EmulatedAnswer) return { ok: true, result: answer.result ?? {}, emulated: answer.emulated };
    return { ok: true, result: answer ?? {} };
  }
  if (endNow) {
    process.on('exit', endNow);
    for (const signal of ['SIGTERM', 'SIGINT', 'SIGHUP']) process.on(signal, () => process.exit(143));
  }
  const write = (reply) => process.stdout.write(`${JSON.stringify(reply)}\n`);
  const stop = (error) => {
    const said =
      error instanceof SilentStop
        ? `silent stop: ${error.message}`
        : error instanceof Error
          ? error.stack
          : String(error);
    process.stderr.write(`${said}\n`);
    process.exit(70);
  };
  createInterface({ input: process.stdin, crlfDelay: Infinity })
    .on('line', (line) => {
      if (line.trim() === '') return;
      let request;
      try {
        request = JSON.parse(line);
      } catch {
        write({ seq: null, ok: false, error: { code: 'invalid-input', message: 'the request is not JSON' } });
        return;
      }
      const { seq, ...command } = request;
      handle(command)
        .catch((error) => {
          if (error instanceof Refusal) return failure(error.code, error.message);
          throw error;
        })
        .then((reply) => write({ seq, ...reply }))
        .catch(stop);
    })
    .on('close', async () => {
      try {
        await end();
      } finally {
        process.exit(0);
      }
    });
}

function failure(code, message) {
  return { ok: false, error: { code, message } };
}
