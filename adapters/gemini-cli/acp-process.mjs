import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

const GEMINI = fileURLToPath(new URL('./node_modules/@google/gemini-cli/bundle/gemini.js', import.meta.url));

/**
 * One `gemini --acp` process: the Agent Client Protocol (JSON-RPC 2.0, one JSON object per line)
 * over its stdin and stdout. The adapter is the ACP client: it sends `initialize`, `session/new`,
 * `session/load`, `session/prompt`, `session/cancel`, `session/set_model`, and answers the agent's
 * `session/request_permission` requests. Every stderr line is kept as a diagnostic.
 */
export class AcpProcess {
  /** @param {{ cwd: string, env: NodeJS.ProcessEnv, args: string[], onDiagnostic: (line: string) => void }} options */
  constructor({ cwd, env, args, onDiagnostic }) {
    this.child = spawn(process.execPath, [GEMINI, '--acp', ...args], {
      cwd,
      env,
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    this.exited = false;
    this.nextId = 1;
    /** @type {Map<number, { resolve: (value: any) => void, reject: (error: Error) => void }>} */
    this.pending = new Map();
    /** Permission requests not answered yet, by the kit's ID: { id, sessionId, rpcId, tool, options }. */
    this.permissions = new Map();
    this.permissionListeners = new Set();
    this.updateListeners = new Set();
    this.exitListeners = new Set();
    this.child.on('exit', (code, signal) => {
      this.exited = true;
      const error = new Error(`gemini --acp exited (${signal ?? code})`);
      for (const { reject } of this.pending.values()) reject(error);
      this.pending.clear();
      for (const listener of this.exitListeners) listener();
    });
    this.child.stdin.on('error', () => {});
    createInterface({ input: this.child.stderr }).on('line', (line) => onDiagnostic(line));
    createInterface({ input: this.child.stdout }).on('line', (line) => this.#receive(line));
  }

  #receive(line) {
    let message;
    try {
      message = JSON.parse(line);
    } catch {
      return;
    }
    if (message.method === undefined) {
      const waiting = this.pending.get(message.id);
      if (!waiting) return;
      this.pending.delete(message.id);
      if (message.error) {
        const error = new Error(message.error.message ?? 'ACP error');
        error.code = message.error.code;
        error.data = message.error.data;
        waiting.reject(error);
      } else waiting.resolve(message.result);
      return;
    }
    if (message.method === 'session/update') {
      for (const listener of this.updateListeners) listener(message.params);
      return;
    }
    if (message.method === 'session/request_permission') {
      const { sessionId, toolCall, options } = message.params;
      const id = toolCall?.toolCallId ?? `permission_${message.id}`;
      const request = { id, sessionId, rpcId: message.id, title: toolCall?.title, kind: toolCall?.kind, options };
      this.permissions.set(id, request);
      for (const listener of this.permissionListeners) listener(request);
      return;
    }
    // A request of the agent this client does not serve (it declares no file system or terminal).
    if (message.id !== undefined)
      this.#write({ jsonrpc: '2.0', id: message.id, error: { code: -32601, message: `${message.method} is not served` } });
  }

  #write(message) {
    if (!this.exited) this.child.stdin.write(`${JSON.stringify(message)}\n`);
  }

  /** A JSON-RPC request, answered with its result (or rejected with its error). */
  request(method, params) {
    if (this.exited) return Promise.reject(new Error('gemini --acp has exited'));
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.#write({ jsonrpc: '2.0', id, method, params });
    });
  }

  notify(method, params) {
    this.#write({ jsonrpc: '2.0', method, params });
  }

  /** Answers a permission request: allow once, or reject once. */
  answerPermission(id, approve) {
    const request = this.permissions.get(id);
    if (!request) return false;
    this.permissions.delete(id);
    const wanted = approve ? ['allow_once', 'allow_always'] : ['reject_once', 'reject_always'];
    const option = wanted.map((kind) => request.options.find((o) => o.kind === kind)).find(Boolean);
    this.#write({
      jsonrpc: '2.0',
      id: request.rpcId,
      result: { outcome: option ? { outcome: 'selected', optionId: option.optionId } : { outcome: 'cancelled' } },
    });
    return true;
  }

  /** Ends the process: stdin closed (the ACP connection ends), then killed if it lingers. */
  async stop() {
    if (this.exited) return;
    const exited = new Promise((resolve) => this.exitListeners.add(resolve));
    this.child.stdin.end();
    const timer = setTimeout(() => this.kill(), 3_000);
    await exited;
    clearTimeout(timer);
  }

  kill() {
    if (!this.exited) this.child.kill('SIGKILL');
  }
}
