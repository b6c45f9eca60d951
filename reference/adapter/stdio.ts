import { createInterface } from 'node:readline';
import { createAdapter, type Adapter } from './conformance-adapter.js';

/**
 * The reference runtime as an out-of-process adapter: newline-delimited JSON on stdin and stdout,
 * one reply per request, each echoing the request's `seq`. Diagnostics go to stderr only.
 *
 * It offers process-reuse: `runtime.close` ends the runtime (its database closed, its work
 * abandoned) and the next `hello` opens a fresh one, as a new process would.
 */
const PROCESS_REUSE = 'process-reuse';

// A crash fault kills the whole process group at once, as a power cut would.
const fresh = () => createAdapter({ echoDiagnostics: true, crash: () => process.kill(0, 'SIGKILL') });
let adapter: Adapter = fresh();
let greeted = false;

/** Ends the runtime the last `hello` opened, if any, and readies one for the next `hello`. */
function closeRuntime(): void {
  if (greeted) {
    adapter.terminate();
    adapter = fresh();
    greeted = false;
  }
}

async function handle(command: { cmd?: unknown } & Record<string, unknown>): Promise<object> {
  if (command.cmd === 'runtime.close') {
    closeRuntime();
    return { ok: true, result: {} };
  }
  if (command.cmd !== 'hello') return adapter.handle(command as never);
  closeRuntime();
  greeted = true;
  const reply = await adapter.handle(command as never);
  if (!reply.ok) return reply;
  const result = reply.result as { capabilities: string[] };
  return { ok: true, result: { ...result, capabilities: [...result.capabilities, PROCESS_REUSE] } };
}

const write = (reply: object) => process.stdout.write(`${JSON.stringify(reply)}\n`);

createInterface({ input: process.stdin, crlfDelay: Infinity })
  .on('line', (line) => {
    if (line.trim() === '') return;
    let request: { seq?: unknown; cmd?: unknown } & Record<string, unknown>;
    try {
      request = JSON.parse(line);
    } catch {
      write({ seq: null, ok: false, error: { code: 'invalid-input', message: 'the request is not JSON' } });
      return;
    }
    const { seq, ...command } = request;
    // Requests are served concurrently: a reply waiting on the runtime (idle, gate.wait) blocks no other.
    handle(command)
      .then((reply) => write({ seq, ...reply }))
      .catch((error: unknown) => {
        process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
        process.exit(70);
      });
  })
  .on('close', () => {
    // Whoever started the adapter is gone: nobody reads replies still to come, and waits such as
    // gate.wait would keep the process alive for ever. It ends once what was written is out.
    adapter.terminate();
    process.stdout.write('', () => process.exit(0));
  });
