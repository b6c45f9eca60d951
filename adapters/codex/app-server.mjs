import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';

const require = createRequire(import.meta.url);
const TRIPLES = { x64: 'x86_64-unknown-linux-musl', arm64: 'aarch64-unknown-linux-musl' };

/** The native `codex` binary the pinned package installs through its platform package. */
export function codexBinary() {
  const platform = `@openai/codex-${process.platform}-${process.arch}`;
  const root = dirname(require.resolve(`${platform}/package.json`));
  return join(root, 'vendor', TRIPLES[process.arch], 'bin', 'codex');
}

/**
 * One `codex app-server` process speaking JSON-RPC 2.0 on its stdin and stdout: requests with
 * their replies, notifications passed to `onNotification`, and the server's own requests
 * (approvals) answered by `onServerRequest`.
 */
export class AppServer {
  exited = false;
  nextId = 0;
  pending = new Map();

  constructor({ env, cwd, args = [], onNotification, onServerRequest, onDiagnostic }) {
    this.onNotification = onNotification;
    this.onServerRequest = onServerRequest;
    this.child = spawn(codexBinary(), ['app-server', ...args], { cwd, env, stdio: ['pipe', 'pipe', 'pipe'] });
    this.child.stdin.on('error', () => {});
    createInterface({ input: this.child.stdout }).on('line', (line) => this.receive(line));
    createInterface({ input: this.child.stderr }).on('line', (line) => {
      onDiagnostic(line);
      process.stderr.write(`codex: ${line}\n`);
    });
    this.exitedPromise = new Promise((resolve) =>
      this.child.on('exit', () => {
        this.exited = true;
        for (const { reject } of this.pending.values()) reject(new Error('codex app-server exited'));
        this.pending.clear();
        resolve();
      }),
    );
  }

  async initialize() {
    await this.request('initialize', {
      clientInfo: { name: 'session_runtime_kit', title: null, version: '1' },
      // turn/steer's queue and thread/queue/* are behind the experimental API.
      capabilities: { experimentalApi: true, requestAttestation: false },
    });
    this.notify('initialized', {});
  }

  receive(line) {
    let message;
    try {
      message = JSON.parse(line);
    } catch {
      process.stderr.write(`codex stdout: ${line}\n`);
      return;
    }
    if (message.method !== undefined && message.id !== undefined) {
      Promise.resolve(this.onServerRequest(message))
        .then((result) => this.write({ jsonrpc: '2.0', id: message.id, result }))
        .catch((error) =>
          this.write({ jsonrpc: '2.0', id: message.id, error: { code: -32603, message: String(error.message) } }),
        );
      return;
    }
    if (message.method !== undefined) {
      this.onNotification(message);
      return;
    }
    const waiting = this.pending.get(message.id);
    if (!waiting) return;
    this.pending.delete(message.id);
    if (message.error) waiting.reject(Object.assign(new Error(message.error.message), { rpc: message.error }));
    else waiting.resolve(message.result);
  }

  write(message) {
    this.child.stdin.write(`${JSON.stringify(message)}\n`);
  }

  request(method, params) {
    if (this.exited) return Promise.reject(new Error('codex app-server exited'));
    const id = ++this.nextId;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.write({ jsonrpc: '2.0', id, method, params });
    });
  }

  notify(method, params) {
    this.write({ jsonrpc: '2.0', method, params });
  }

  /** Closes stdin (the server shuts down), then kills what is left after a grace period. */
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
