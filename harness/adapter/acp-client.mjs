import { JsonRpcChild } from './json-rpc-child.mjs';
import { Refusal } from './stdio-serve.mjs';

/**
 * A runtime's Agent Client Protocol agent in a child process, the adapter its client: the
 * `initialize` handshake (a client with no file system or terminal of its own), `session/prompt`
 * requests tracked until answered, the agent's `session/request_permission` requests held for the
 * kit's answer, and `session/cancel`. What a runtime adds to ACP (its ext methods, how it takes a
 * prompt sent while another runs) is its adapter's: `serveRequest` answers the agent's other
 * requests (a value, a promise, or `undefined` to answer later), `toolOf` names the tool a
 * permission request is about.
 */
export class AcpClient extends JsonRpcChild {
  /** How many `session/prompt` requests of each session are sent and not answered yet. */
  prompts = new Map();
  /** Permission requests not answered yet, by the kit's ID. */
  permissions = new Map();
  waiters = [];

  /**
   * @param {{ command: string, args: string[], cwd?: string, env?: NodeJS.ProcessEnv, name: string,
   *   onDiagnostic?: (line: string) => void, serveRequest?: (message: any) => unknown,
   *   toolOf?: (toolCall: any) => string }} options
   */
  constructor({ serveRequest, toolOf, ...options }) {
    super({
      ...options,
      onServerRequest: (message) => this.answer(message),
      onExit: () => {
        this.permissions.clear();
        this.wake();
      },
    });
    this.serveRequest = serveRequest;
    this.toolOf = toolOf ?? ((toolCall) => toolCall._meta?.toolName ?? toolCall.title);
  }

  initialize() {
    return this.request('initialize', {
      protocolVersion: 1,
      clientCapabilities: { fs: { readTextFile: false, writeTextFile: false }, terminal: false },
    });
  }

  /** Wakes whatever waits for the process to change: a prompt's answer, a permission request, the exit. */
  wake() {
    for (const wake of this.waiters.splice(0)) wake();
  }

  changed() {
    return new Promise((resolve) => this.waiters.push(resolve));
  }

  answer(message) {
    if (message.method === 'session/request_permission') {
      const { sessionId, toolCall = {}, options = [] } = message.params ?? {};
      const id = `acp_${sessionId}_${message.id}`;
      this.permissions.set(id, {
        id,
        sessionId,
        rpcId: message.id,
        tool: this.toolOf(toolCall),
        callId: toolCall.toolCallId,
        options,
      });
      this.wake();
      return undefined;
    }
    if (this.serveRequest) return this.serveRequest(message);
    this.respondError(message.id, -32601, `Method not found: ${message.method}`);
    return undefined;
  }

  /** One `session/prompt`, answered when its turn ends; a turn that ended has no call awaiting approval. */
  prompt(sessionId, blocks, meta) {
    const sent = this.request('session/prompt', { sessionId, prompt: blocks, ...(meta ? { _meta: meta } : {}) });
    this.prompts.set(sessionId, (this.prompts.get(sessionId) ?? 0) + 1);
    sent
      .catch(() => {})
      .finally(() => {
        const left = this.prompts.get(sessionId) - 1;
        if (left > 0) this.prompts.set(sessionId, left);
        else {
          this.prompts.delete(sessionId);
          for (const [id, request] of this.permissions)
            if (request.sessionId === sessionId) this.permissions.delete(id);
        }
        this.wake();
      });
    return sent;
  }

  /** Cancels the session's running prompt (`session/cancel`), its calls awaiting approval cancelled first. */
  cancel(sessionId) {
    for (const request of this.permissions.values())
      if (request.sessionId === sessionId) this.respond(request.rpcId, { outcome: { outcome: 'cancelled' } });
    for (const [id, request] of this.permissions) if (request.sessionId === sessionId) this.permissions.delete(id);
    this.notify('session/cancel', { sessionId });
  }

  /** The answer to a `session/request_permission`: allow the call once, or reject it. */
  answerPermission(id, approve) {
    const request = this.permissions.get(id);
    if (!request) return false;
    this.permissions.delete(id);
    const option =
      request.options.find((candidate) => candidate.kind === (approve ? 'allow_once' : 'reject_once')) ??
      request.options.find((candidate) => candidate.kind.startsWith(approve ? 'allow' : 'reject'));
    this.respond(
      request.rpcId,
      option ? { outcome: { outcome: 'selected', optionId: option.optionId } } : { outcome: { outcome: 'cancelled' } },
    );
    return true;
  }

  /** Resolves once a call of the session awaits approval; false if the work asked of it ended with none. */
  async permissionAwaited(sessionId) {
    while (![...this.permissions.values()].some((request) => request.sessionId === sessionId)) {
      if (!this.isBusy(sessionId)) return false;
      await this.changed();
    }
    return true;
  }

  /** Some work asked of the process for the session (or for any, without one) is not answered yet. */
  isBusy(sessionId) {
    return !this.exited && (sessionId === undefined ? this.prompts.size > 0 : this.prompts.has(sessionId));
  }

  get busy() {
    return this.isBusy();
  }

  async idle(sessionId) {
    while (this.isBusy(sessionId)) await this.changed();
  }
}

/**
 * The kit's `permission.*` commands over ACP clients, the runtime's `session/request_permission`
 * requests being the calls that await approval: `known(sessionId)` refuses an unknown session,
 * and gives its record (`uuid`, the runtime's ID of it), `clientOf(sessionId)` is the session's
 * client if it runs, `clients()` every running one, and each request is reported as asked of `agent`.
 */
export function permissionCommands({ known, clientOf, clients, agent }) {
  const asked = (sessionId) => {
    const { uuid } = known(sessionId);
    return [...(clientOf(sessionId)?.permissions.values() ?? [])].filter((request) => request.sessionId === uuid);
  };
  return {
    'permission.pending': (c) => ({ requests: asked(c.sessionId).map(({ id, tool }) => ({ id, tool, agent })) }),
    'permission.wait': async (c) => {
      const { uuid } = known(c.sessionId);
      if (!(await clientOf(c.sessionId)?.permissionAwaited(uuid)))
        throw new Refusal('conflict', 'the session has no work left and no tool call awaits permission');
    },
    'permission.reply': (c) => {
      for (const client of clients()) if (client?.answerPermission(c.id, c.approve)) return;
      throw new Refusal('not-found', `no tool call awaits permission as ${c.id}`);
    },
  };
}
