import { createInterface } from 'node:readline';
import { createAdapter } from './conformance-adapter.js';

/**
 * The reference runtime as an out-of-process adapter: newline-delimited JSON on stdin and stdout,
 * one reply per request, each echoing the request's `seq`. Diagnostics go to stderr only.
 */
// A crash fault kills the whole process group at once, as a power cut would.
const adapter = createAdapter({ echoDiagnostics: true, crash: () => process.kill(0, 'SIGKILL') });
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
    adapter
      .handle(command as never)
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
