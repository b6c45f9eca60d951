import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';

/**
 * A runtime's process speaking JSON-RPC 2.0 on its stdin and stdout, one message a line, as
 * runtimes serve their headless interfaces (an app server, the Agent Client Protocol), or each
 * message headed by its `Content-Length` (`framing: 'content-length'`, the Language Server
 * Protocol's base protocol, which `vscode-jsonrpc` servers speak): requests
 * with their replies, notifications handed to `onNotification`, and the runtime's own requests
 * handed to `onServerRequest`, whose result (a value or a promise) is the reply; a handler that
 * returns `undefined` replies later itself (`respond`, `respondError`). Its stderr lines go to
 * `onDiagnostic` and on to the adapter's stderr, headed by `name`.
 */
export class JsonRpcChild {
  exited = false;
  nextId = 0;
  /** Requests sent and not answered yet, by ID. */
  pending = new Map();

  /**
   * @param {{ command: string, args: string[], cwd?: string, env?: NodeJS.ProcessEnv, name: string,
   *   onNotification?: (message: any) => void, onServerRequest?: (message: any) => unknown,
   *   onDiagnostic?: (line: string) => void, onExit?: () => void, framing?: 'lines' | 'content-length' }} options
   */
  constructor({ command, args, cwd, env, name, onNotification, onServerRequest, onDiagnostic, onExit, framing }) {
    this.name = name;
    this.framed = framing === 'content-length';
    this.onNotification = onNotification ?? (() => {});
    this.onServerRequest =
      onServerRequest ?? ((message) => this.respondError(message.id, -32601, `Method not found: ${message.method}`));
    this.child = spawn(command, args, { cwd, env, stdio: ['pipe', 'pipe', 'pipe'] });
    // A process that died mid-write is told by its exit, not by a write error.
    this.child.stdin.on('error', () => {});
    if (this.framed) readFrames(this.child.stdout, (body) => this.receive(body));
    else createInterface({ input: this.child.stdout }).on('line', (line) => this.receive(line));
    createInterface({ input: this.child.stderr }).on('line', (line) => {
      onDiagnostic?.(line);
      process.stderr.write(`${name}: ${line}\n`);
    });
    this.exitedPromise = new Promise((resolve) =>
      this.child.on('exit', (code, signal) => {
        this.exited = true;
        const how = signal ? `killed by ${signal}` : `exited with code ${code}`;
        for (const { reject } of this.pending.values()) reject(new Error(`${name} ${how}`));
        this.pending.clear();
        onExit?.();
        resolve();
      }),
    );
  }

  receive(line) {
    let message;
    try {
      message = JSON.parse(line);
    } catch {
      process.stderr.write(`${this.name} stdout: ${line}\n`);
      return;
    }
    if (message.method === undefined) {
      const waiting = this.pending.get(message.id);
      if (!waiting) return;
      this.pending.delete(message.id);
      if (message.error)
        waiting.reject(
          Object.assign(
            new Error(
              // A generic message ("Internal error") says why only in its data.
              [message.error.message ?? JSON.stringify(message.error), message.error.data?.details]
                .filter(Boolean)
                .join(': '),
            ),
            { rpc: message.error },
          ),
        );
      else waiting.resolve(message.result ?? {});
      return;
    }
    if (message.id === undefined) {
      this.onNotification(message);
      return;
    }
    let answer;
    try {
      answer = this.onServerRequest(message);
    } catch (error) {
      answer = Promise.reject(error);
    }
    if (answer === undefined) return;
    Promise.resolve(answer).then(
      (result) => this.respond(message.id, result),
      (error) => this.respondError(message.id, -32603, String(error.message)),
    );
  }

  write(message) {
    if (this.exited) return;
    const body = JSON.stringify(message);
    this.child.stdin.write(this.framed ? `Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}` : `${body}\n`);
  }

  request(method, params) {
    const id = ++this.nextId;
    return new Promise((resolve, reject) => {
      if (this.exited) return reject(new Error(`${this.name} exited`));
      this.pending.set(id, { resolve, reject });
      this.write({ jsonrpc: '2.0', id, method, params });
    });
  }

  notify(method, params) {
    this.write({ jsonrpc: '2.0', method, params });
  }

  respond(id, result) {
    this.write({ jsonrpc: '2.0', id, result });
  }

  respondError(id, code, message) {
    this.write({ jsonrpc: '2.0', id, error: { code, message } });
  }

  /** Closes stdin (the process ends, as these interfaces do on end of input), then kills what is left after a grace period. */
  async stop() {
    if (this.exited) return;
    this.child.stdin.end();
    const timer = setTimeout(() => this.child.kill('SIGKILL'), 5_000);
    await this.exitedPromise;
    clearTimeout(timer);
  }

  kill() {
    if (!this.exited) this.child.kill('SIGKILL');
  }
}

/** Hands each `Content-Length`-headed message of `stream` to `onMessage`, as text. */
function readFrames(stream, onMessage) {
  let buffer = Buffer.alloc(0);
  stream.on('data', (chunk) => {
    buffer = Buffer.concat([buffer, chunk]);
    for (;;) {
      const end = buffer.indexOf('\r\n\r\n');
      if (end < 0) return;
      const length = Number(/content-length:\s*(\d+)/i.exec(buffer.subarray(0, end).toString('latin1'))?.[1]);
      if (!Number.isInteger(length)) throw new Error(`a message without Content-Length: ${buffer.subarray(0, end)}`);
      if (buffer.length < end + 4 + length) return;
      onMessage(buffer.subarray(end + 4, end + 4 + length).toString('utf8'));
      buffer = buffer.subarray(end + 4 + length);
    }
  });
}
