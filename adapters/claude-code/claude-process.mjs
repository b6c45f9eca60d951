import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';

/** The destinations of Claude Code's permission updates that it keeps for the project. */
const PROJECT_SETTINGS = new Set(['localSettings', 'projectSettings']);

/**
 * One `claude -p --input-format stream-json --output-format stream-json` process serving one
 * session: user messages go to its stdin as stream-json lines, and its output says when the
 * session turns idle (`system/session_state_changed`, which CLAUDE_CODE_EMIT_SESSION_STATE_EVENTS
 * turns on and Claude Code calls its authoritative turn-over signal). The process stays in the
 * adapter's process group, so the kit's SIGKILL of a restart kills it with the adapter.
 */
export class ClaudeProcess {
  constructor({ binary, args, cwd, env, log, servers = [], skills }) {
    this.state = 'idle';
    /** The MCP servers the adapter hosts for this process (SdkMcpServer), by name. */
    this.servers = new Map(servers.map((server) => [server.name, server]));
    /** User messages written that Claude Code has not echoed back yet (`--replay-user-messages`). */
    this.unread = 0;
    /**
     * The UUIDs of the user messages written to this process, each with whether it queried: Claude
     * Code skips one it took already, before its transcript row is written too.
     */
    this.written = new Map();
    this.waiters = [];
    this.permissionWaiters = [];
    this.pending = new Map();
    this.controls = 0;
    this.exited = false;
    /** Claude Code's `can_use_tool` control requests not answered yet, by request ID: the calls awaiting permission. */
    this.permissions = new Map();
    this.child = spawn(binary, args, { cwd, env, stdio: ['pipe', 'pipe', 'pipe'] });
    this.exit = new Promise((resolve) =>
      this.child.on('exit', (code, signal) => {
        this.exited = true;
        this.permissions.clear();
        this.setState('idle');
        if (code !== 0 && signal !== 'SIGKILL' && signal !== 'SIGTERM') log(`claude exited with ${code ?? signal}`);
        resolve();
      }),
    );
    this.child.stdin.on('error', () => {});
    createInterface({ input: this.child.stdout }).on('line', (line) => this.observe(line, log));
    createInterface({ input: this.child.stderr }).on('line', (line) => log(line));
    // The SDK's handshake: it names the servers the host serves through mcp_message, and the skills
    // the main session may load (its `skills` allowlist). Written before any user message, it is read first.
    if (this.servers.size > 0 || skills)
      this.control({
        subtype: 'initialize',
        sdkMcpServers: [...this.servers.keys()],
        ...(skills ? { skills } : {}),
      }).catch((error) => log(`initialize: ${error.message}`));
  }

  observe(line, log) {
    let message;
    try {
      message = JSON.parse(line);
    } catch {
      log(line);
      return;
    }
    if (message.type === 'system' && message.subtype === 'session_state_changed') this.setState(message.state);
    if (message.type === 'user' && message.isReplay === true) {
      this.unread = Math.max(0, this.unread - 1);
      this.setState(this.state);
    }
    if (message.type === 'control_request' && message.request?.subtype === 'can_use_tool') {
      const { tool_name: tool, tool_use_id: callId, permission_suggestions: suggestions = [] } = message.request;
      // The agent the process ran as when Claude Code asked: a later switch leaves the call its own.
      this.permissions.set(message.request_id, {
        id: message.request_id,
        tool,
        callId,
        // A process that runs as no agent (Claude Code has no default one) asks under none.
        agent: this.agent ?? '',
        suggestions,
      });
      this.notify();
      return;
    }
    if (message.type === 'control_request' && message.request?.subtype === 'mcp_message') {
      this.serve(message.request_id, message.request, log);
      return;
    }
    // Claude Code withdraws a request it no longer waits for (an interrupt, the turn's end).
    if (message.type === 'control_cancel_request') {
      this.permissions.delete(message.request_id);
      this.notify();
      return;
    }
    if (message.type === 'control_response') {
      const { request_id: id, subtype, error, response } = message.response ?? {};
      this.pending.get(id)?.(
        subtype === 'success' ? undefined : new Error(error ?? `control request ${id} failed`),
        response,
      );
      this.pending.delete(id);
    }
  }

  /**
   * An `mcp_message` control request: one JSON-RPC message of Claude Code's client to a server the
   * adapter hosts, answered with the server's reply as `mcp_response` whenever it is ready (a
   * `gate` call, once the kit opens the gate).
   */
  async serve(id, { server_name: name, message }, log) {
    const server = this.servers.get(name);
    if (!server) {
      this.send({
        type: 'control_response',
        response: { subtype: 'error', request_id: id, error: `no server ${name}` },
      });
      return;
    }
    try {
      const answer = await server.answer(message);
      this.send({
        type: 'control_response',
        response: { subtype: 'success', request_id: id, response: { mcp_response: answer } },
      });
    } catch (error) {
      log(`${name}: ${error.message}`);
      this.send({ type: 'control_response', response: { subtype: 'error', request_id: id, error: error.message } });
    }
  }

  /**
   * The MCP servers the adapter hosts for this process from now on, through the `mcp_set_servers`
   * control request, which replaces the set of Claude Code's dynamically managed servers (those of
   * `initialize` included): their tools are offered from its next provider request on.
   */
  async setServers(servers) {
    // A server kept with the same tools stays the one serving its running calls.
    const same = (server) => {
      const kept = this.servers.get(server.name);
      return kept && [...kept.tools.keys()].join() === [...server.tools.keys()].join() ? kept : server;
    };
    this.servers = new Map(servers.map((server) => [server.name, same(server)]));
    await this.control({
      subtype: 'mcp_set_servers',
      servers: Object.fromEntries(servers.map(({ name }) => [name, { type: 'sdk', name }])),
    });
  }

  /** A control request (`interrupt`, `set_cwd`, ...); resolves with Claude Code's answer to it. */
  control(request) {
    const id = `kit_${++this.controls}`;
    const answered = new Promise((resolve, reject) =>
      this.pending.set(id, (error, response) => (error ? reject(error) : resolve(response ?? {}))),
    );
    this.send({ type: 'control_request', request_id: id, request });
    return answered;
  }

  /**
   * The answer to a `can_use_tool` request: run the call, or refuse it; false if no such request
   * waits. Approved `always`, the answer's `updatedPermissions` are the updates Claude Code offered
   * with the request (`permission_suggestions`) that it keeps for the project: those whose destination
   * is the project's local or shared settings (`.claude/settings.local.json`, `.claude/settings.json`),
   * which it writes and every later session started there reads. Updates it offers for this session
   * only are not taken: the kit's approval is saved for the project.
   */
  answerPermission(id, approve, always = false) {
    const request = this.permissions.get(id);
    if (!request) return false;
    this.permissions.delete(id);
    const saved = always ? request.suggestions.filter(({ destination }) => PROJECT_SETTINGS.has(destination)) : [];
    const response = approve
      ? { behavior: 'allow', ...(saved.length > 0 ? { updatedPermissions: saved } : {}) }
      : { behavior: 'deny', message: 'The user declined this tool call.' };
    this.send({ type: 'control_response', response: { subtype: 'success', request_id: id, response } });
    return true;
  }

  /** Resolves true once a call awaits permission; false once the session settled with none. */
  async permissionAwaited() {
    while (this.permissions.size === 0) {
      if (this.settled()) return false;
      await new Promise((resolve) => this.permissionWaiters.push(resolve));
    }
    return true;
  }

  notify() {
    for (const resolve of this.permissionWaiters.splice(0)) resolve();
  }

  /**
   * Idle once Claude Code says so and has taken in every user message written: it can report the
   * end of a turn while a message steered into it still waits unread on its stdin.
   */
  setState(state) {
    this.state = state;
    // A turn that ended leaves no call waiting for permission.
    if (this.settled()) this.permissions.clear();
    this.notify();
    if (!this.settled()) return;
    for (const resolve of this.waiters.splice(0)) resolve();
  }

  /** Writes one stream-json line; a user message makes the session run until it reports idle again. */
  send(message, { echoed = true } = {}) {
    if (this.exited) return;
    if (message.type === 'user') {
      this.state = 'running';
      if (echoed) this.unread += 1;
      if (message.uuid && !this.written.has(message.uuid))
        this.written.set(message.uuid, message.shouldQuery !== false);
    }
    this.child.stdin.write(`${JSON.stringify(message)}\n`);
  }

  /** Resolves once the session reports idle (at once when it is). */
  idle() {
    if (this.settled()) return Promise.resolve();
    return new Promise((resolve) => this.waiters.push(resolve));
  }

  settled() {
    return this.exited || (this.state === 'idle' && this.unread === 0);
  }

  /**
   * A clean end: the `end_session` control request, then stdin closed, which ends a print-mode
   * process once its work is done; killed if it has not ended within `grace` milliseconds.
   */
  async close(grace = 10_000) {
    if (this.exited) return;
    this.send({ type: 'control_request', request_id: `kit_${++this.controls}`, request: { subtype: 'end_session' } });
    await this.finish(grace);
  }

  /** Stdin closed: the process ends once the work it has is done; killed if it has not within `grace` milliseconds. */
  async finish(grace = 30_000) {
    if (this.exited) return;
    this.child.stdin.end();
    const timer = setTimeout(() => this.child.kill('SIGKILL'), grace);
    await this.exit;
    clearTimeout(timer);
  }

  /** Closing stdin ends a print-mode session once its work is done; a kill ends it at once. */
  async stop(signal = 'SIGKILL') {
    if (this.exited) return;
    this.child.kill(signal);
    await this.exit;
  }
}
