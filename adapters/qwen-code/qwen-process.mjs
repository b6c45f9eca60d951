import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';

const require = createRequire(import.meta.url);
/**
 * The package's CLI, run with the adapter's own Node as its `qwen` bin entry runs it (with
 * `--expose-gc`), without that entry's extra Node process in between.
 */
export const QWEN_CLI = join(dirname(require.resolve('@qwen-code/qwen-code/package.json')), 'cli.js');

/**
 * One `qwen` process serving one session through its own headless interface:
 * `--input-format stream-json --output-format stream-json`. Every user message written to its
 * stdin enters Qwen Code's queue and runs as a turn of its own; each ends with a `result` line.
 * Control requests (`interrupt`, `set_model`, `continue_last_turn`) go the same way once the
 * `initialize` request has opened its control channel.
 */
export class QwenProcess {
  /**
   * Work asked of the process that ends with a `result` line, oldest first, in the order it runs:
   * `turn` (a user message or an accepted continuation) or `command` (a slash command).
   */
  awaited = [];
  exited = false;
  pendingControl = new Map();
  /** Qwen Code's `can_use_tool` requests not answered yet, by request ID: the calls awaiting approval. */
  permissions = new Map();
  waiters = [];
  lastResult = undefined;

  constructor({ cwd, env, args, onDiagnostic }) {
    this.child = spawn(
      process.execPath,
      ['--expose-gc', QWEN_CLI, '--input-format', 'stream-json', '--output-format', 'stream-json', ...args],
      {
        cwd,
        env,
        stdio: ['pipe', 'pipe', 'pipe'],
      },
    );
    this.child.stdin.on('error', () => {});
    createInterface({ input: this.child.stdout }).on('line', (line) => this.receive(line));
    createInterface({ input: this.child.stderr }).on('line', (line) => {
      onDiagnostic(line);
      process.stderr.write(`qwen: ${line}\n`);
    });
    this.exitedPromise = new Promise((resolve) =>
      this.child.on('exit', () => {
        this.exited = true;
        for (const notify of this.waiters.splice(0)) notify();
        for (const { reject } of this.pendingControl.values()) reject(new Error('qwen exited'));
        this.permissions.clear();
        resolve();
      }),
    );
    this.controls = 0;
    // A call awaiting approval waits for the host's answer up to the longest Qwen Code allows.
    this.ready = this.control({ subtype: 'initialize', timeout: { canUseTool: 600_000 } });
    this.ready.catch(() => {});
  }

  receive(line) {
    let message;
    try {
      message = JSON.parse(line);
    } catch {
      process.stderr.write(`qwen stdout: ${line}\n`);
      return;
    }
    if (message.type === 'control_response') {
      const { request_id: id, subtype, error } = message.response ?? {};
      const pending = this.pendingControl.get(id);
      if (!pending) return;
      this.pendingControl.delete(id);
      if (subtype === 'error') pending.reject(new Error(String(error)));
      else pending.resolve(message.response.response ?? {});
      return;
    }
    if (message.type === 'control_request' && message.request?.subtype === 'can_use_tool') {
      const { tool_name: tool, tool_use_id: callId } = message.request;
      this.permissions.set(message.request_id, { id: message.request_id, tool, callId });
      for (const notify of this.waiters.splice(0)) notify();
      return;
    }
    if (message.type === 'result') {
      this.awaited.shift();
      // A turn that ended has no call left awaiting approval (an interrupt aborts the request).
      if (!this.turning) this.permissions.clear();
      this.lastResult = message;
      for (const notify of this.waiters.splice(0)) notify();
    }
  }

  write(message) {
    this.child.stdin.write(`${JSON.stringify(message)}\n`);
  }

  control(request) {
    const requestId = `kit_${++this.controls}`;
    return new Promise((resolve, reject) => {
      this.pendingControl.set(requestId, { resolve, reject });
      this.write({ type: 'control_request', request_id: requestId, request: request });
    });
  }

  /** Written at once: qwen reads its input in order and holds a user message until it is initialized. */
  sendUser(text, kind = 'turn') {
    this.awaited.push(kind);
    this.write({ type: 'user', session_id: '', parent_tool_use_id: null, message: { role: 'user', content: text } });
  }

  /** The answer to a `can_use_tool` request: run the call, or refuse it. */
  answerPermission(id, approve) {
    if (!this.permissions.delete(id)) return false;
    this.write({
      type: 'control_response',
      response: {
        subtype: 'success',
        request_id: id,
        response: approve ? { behavior: 'allow' } : { behavior: 'deny', message: 'The user declined this tool call.' },
      },
    });
    return true;
  }

  /** Resolves once a call awaits approval; false if the work asked of the process ended with none. */
  async permissionAwaited() {
    while (this.permissions.size === 0) {
      if (!this.busy) return false;
      await new Promise((resolve) => this.waiters.push(resolve));
    }
    return true;
  }

  /** Some work asked of the process has no `result` line yet. */
  get busy() {
    return !this.exited && this.awaited.length > 0;
  }

  /** A turn runs or waits: what is still to come is more than slash commands. */
  get turning() {
    return !this.exited && this.awaited.includes('turn');
  }

  /** Resolves once every user message written has its `result`, or the process is gone. */
  async idle() {
    while (this.busy) await new Promise((resolve) => this.waiters.push(resolve));
  }

  /** Closes stdin (qwen drains and exits), then kills what is left after a grace period. */
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
