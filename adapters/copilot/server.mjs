import { JsonRpcChild } from '../../harness/adapter/json-rpc-child.mjs';

/**
 * One `copilot --headless --stdio` process: GitHub Copilot CLI's SDK server, JSON-RPC headed by
 * `Content-Length` (the server `@github/copilot-sdk`'s `CopilotClient.startCLIServer` starts).
 * Every session it opens names its own provider (`provider` of `session.create` and
 * `session.resume`), working directory and configuration directory (`configDir`, where the
 * session's `session-state/<id>/events.jsonl` is kept), so one process serves the sessions of
 * runtime after runtime. The server tells each session's events as `session.event` notifications;
 * this keeps, per session, whether it is processing and the permission requests it waits on.
 */
export class CopilotServer extends JsonRpcChild {
  /** Per Copilot session ID: `{ busy, waiters }`. */
  sessions = new Map();
  /** The permission requests not decided yet, by request ID: `{ id, tool, sessionId }`. */
  permissions = new Map();
  /** The tool of each call started, by call ID (a permission request names the call only). */
  tools = new Map();
  /** Who waits for the next change of the permissions or of a session's work. */
  changes = [];

  constructor({ command, cwd, env, onDiagnostic }) {
    super({
      command,
      args: ['--headless', '--no-auto-update', '--stdio', '--no-auto-login', '--log-level', 'error'],
      cwd,
      env,
      name: 'copilot',
      framing: 'content-length',
      onDiagnostic,
      onNotification: (message) => this.notified(message),
    });
    this.ready = this.request('ping', {});
    this.ready.catch(() => {});
  }

  state(uuid) {
    let state = this.sessions.get(uuid);
    if (!state) {
      state = { busy: false, compacting: false, waiters: [] };
      this.sessions.set(uuid, state);
    }
    return state;
  }

  notified(message) {
    if (message.method !== 'session.event') return;
    const { sessionId, event } = message.params ?? {};
    if (!sessionId || !event) return;
    const state = this.state(sessionId);
    // What events.jsonl is to hold once Copilot CLI's debounced writer has flushed: every event
    // not marked `ephemeral` ("not persisted to the session event log on disk", session-events.d.ts).
    if (!event.ephemeral && event.id) state.lastDurable = event.id;
    switch (event.type) {
      case 'session.idle':
        state.busy = false;
        if (!state.compacting) for (const resolve of state.waiters.splice(0)) resolve();
        break;
      // A compaction Copilot CLI runs in the background may outlast the turn's `session.idle`:
      // the session settles once it has ended too.
      case 'session.compaction_start':
        state.compacting = true;
        break;
      case 'session.compaction_complete':
        state.compacting = false;
        if (!state.busy) for (const resolve of state.waiters.splice(0)) resolve();
        break;
      case 'tool.execution_start':
        this.tools.set(event.data.toolCallId, event.data.toolName);
        break;
      case 'permission.requested': {
        const { requestId, permissionRequest } = event.data;
        const tool = this.tools.get(permissionRequest?.toolCallId) ?? permissionRequest?.kind;
        this.permissions.set(requestId, { id: requestId, tool, sessionId });
        break;
      }
      case 'permission.completed':
        this.permissions.delete(event.data.requestId);
        break;
      default:
        return;
    }
    for (const resolve of this.changes.splice(0)) resolve();
  }

  changed() {
    return new Promise((resolve) => {
      this.changes.push(resolve);
      this.exitedPromise.then(resolve);
    });
  }

  /** Approves the call once, or rejects it (`session.permissions.handlePendingPermissionRequest`). */
  answerPermission(id, approve) {
    const request = this.permissions.get(id);
    if (!request) return false;
    this.permissions.delete(id);
    this.request('session.permissions.handlePendingPermissionRequest', {
      sessionId: request.sessionId,
      requestId: id,
      result: approve ? { kind: 'approve-once' } : { kind: 'reject' },
    }).catch((error) => process.stderr.write(`copilot: permission ${id}: ${error.message}\n`));
    return true;
  }

  /** Resolves once a call of the session awaits approval; false if its work ended with none. */
  async permissionAwaited(uuid) {
    while (![...this.permissions.values()].some((request) => request.sessionId === uuid)) {
      if (!this.isBusy(uuid) || this.exited) return false;
      await this.changed();
    }
    return true;
  }

  /** Sends a prompt; `mode` is `enqueue` (after the running turn) or `immediate` (into it). */
  send(uuid, params) {
    return this.startWork(uuid, 'session.send', params);
  }

  /**
   * Runs one turn over the session's history with no new user message: `session.sendMessages`
   * with none (experimental in 1.0.102: "May be empty, in which case a single turn runs over the
   * existing history", copilot-sdk/generated/rpc.d.ts).
   */
  runTurn(uuid) {
    return this.startWork(uuid, 'session.sendMessages', { messages: [] });
  }

  async startWork(uuid, method, params) {
    const state = this.state(uuid);
    state.busy = true;
    try {
      return await this.request(method, { sessionId: uuid, ...params });
    } catch (error) {
      state.busy = false;
      for (const resolve of state.waiters.splice(0)) resolve();
      throw error;
    }
  }

  isBusy(uuid) {
    return this.sessions.get(uuid)?.busy ?? false;
  }

  /**
   * Resolves once the session has told `session.idle` after the last prompt sent and ended any
   * compaction it started (or the process ended).
   */
  idle(uuid) {
    const state = this.state(uuid);
    if ((!state.busy && !state.compacting) || this.exited) return Promise.resolve();
    return new Promise((resolve) => {
      state.waiters.push(resolve);
      this.exitedPromise.then(resolve);
    });
  }

  /** The ID of the last event the server told that its session's event log is to hold. */
  lastDurable(uuid) {
    return this.sessions.get(uuid)?.lastDurable;
  }

  /** Sessions with work running. */
  busySessions() {
    return [...this.sessions].filter(([, state]) => state.busy || state.compacting).map(([uuid]) => uuid);
  }
}
