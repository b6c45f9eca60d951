import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { AcpClient } from '../../harness/adapter/acp-client.mjs';

const require = createRequire(import.meta.url);
/**
 * The package's CLI, run with the adapter's own Node as its `qwen` bin entry runs it (with
 * `--expose-gc`), without that entry's extra Node process in between.
 */
export const QWEN_CLI = join(dirname(require.resolve('@qwen-code/qwen-code/package.json')), 'cli.js');

/** Qwen Code's ACP names (chunk-LDH7MN44.js and chunk-5NZED4YR.js of the pinned package). */
const REQUESTED_SESSION_ID = 'qwen-code/sessionId';
const CONTINUE_LAST_TURN = 'qwen.daemon.continueLastTurn';
const MODEL_PERSIST_DEFAULT = 'qwen.session.modelPersistDefault';
const DRAIN_MID_TURN_QUEUE = 'craft/drainMidTurnQueue';
const SESSION_CONTINUE = 'qwen/control/session/continue';
const SESSION_CD = 'qwen/control/session/cd';
const SESSION_CLOSE = 'qwen/control/session/close';
const RELOAD_MODEL_PROVIDERS = 'qwen/control/workspace/model-providers/reload';
const SET_PERMISSION_RULES = 'qwen/permissions/setRules';

/**
 * One `qwen --acp` process serving one session at a time through Qwen Code's Agent Client Protocol
 * interface: JSON-RPC 2.0, one message a line, on stdin and stdout. The adapter is the ACP client:
 * it opens the session (`session/new` with the session's UUID, or `session/load` once its chat
 * recording exists), sends each prompt as a `session/prompt` request (answered when the turn
 * ends), answers Qwen Code's `session/request_permission` requests, and hands prompts steered into
 * a running turn to Qwen Code when it asks for them between tool batches (the ext method
 * `craft/drainMidTurnQueue`). As ACP wants of its client, a prompt sent while a turn runs waits
 * for that turn's answer before it is sent.
 */
export class AcpProcess extends AcpClient {
  /** Work sent to Qwen Code and not answered yet: `turn` (a prompt or a continuation) or `command` (a slash command). */
  running = undefined;
  /** Prompts waiting for the running turn to end, oldest first: `{ blocks, kind }`. */
  queue = [];
  /** Prompts steered into the running turn, not yet taken by Qwen Code. */
  steers = [];

  constructor({ cwd, env, args, onDiagnostic }) {
    super({
      command: process.execPath,
      args: ['--expose-gc', QWEN_CLI, '--acp', ...args],
      cwd,
      env,
      name: 'qwen',
      serveRequest: (message) => this.serveDrain(message),
      onDiagnostic,
    });
    this.initialized = this.initialize();
    this.initialized.catch(() => {});
  }

  /**
   * Opens the session the process serves from now on (`session/load` once its chat recording
   * exists, else `session/new` with its UUID) in `cwd`: Qwen Code reads its settings, instruction
   * files and skills for each session it opens (`loadSettingsCached(cwd)`, then `loadCliConfig`).
   */
  open({ cwd, sessionId, resume, model, agent, afterFailedTurn }) {
    this.sessionId = sessionId;
    /** The kit agent the session runs as, whose permission rules Qwen Code holds. */
    this.agent = agent;
    this.afterFailedTurn = afterFailedTurn;
    this.cwd = cwd;
    this.moving = undefined;
    this.ready = (async () => {
      await this.initialized;
      if (resume) await this.request('session/load', { sessionId, cwd, mcpServers: [] });
      else await this.request('session/new', { cwd, mcpServers: [], _meta: { [REQUESTED_SESSION_ID]: sessionId } });
      // A model selected earlier is selected again: a session opens with the default model.
      if (model)
        await this.selectModel(model).catch((error) =>
          process.stderr.write(`qwen session/set_model: ${error.message}\n`),
        );
    })();
    this.ready.catch(() => {});
  }

  /**
   * Closes the session (`qwen/control/session/close`, once its records are written), so that the
   * process may open another: true once Qwen Code closed it; false if it has work left, failed to
   * open or move, or was not closed.
   */
  async release() {
    if (this.exited || this.isBusy()) return false;
    try {
      await this.ready;
      await this.moving;
      const { closed } = await this.request(SESSION_CLOSE, { sessionId: this.sessionId, requireFlush: true });
      return closed === true && !this.exited && !this.isBusy();
    } catch {
      return false;
    }
  }

  /** A permission request is noted with the agent the session ran as when Qwen Code asked it. */
  answer(message) {
    const answered = super.answer(message);
    if (message.method === 'session/request_permission') [...this.permissions.values()].at(-1).agent = this.agent;
    return answered;
  }

  /** Qwen Code asks, between tool batches, for the user input sent since the turn began. */
  serveDrain(message) {
    if (message.method === DRAIN_MID_TURN_QUEUE) {
      // Every steer goes to it at once, in the order admitted; it records them (mid_turn_user_message).
      const items = this.steers
        .splice(0)
        .map((blocks) => ({ content: blocks, displayText: blocks.map((block) => block.text).join('\n') }));
      return { items, hasQueuedPrompt: this.queue.length > 0 };
    }
    this.respondError(message.id, -32601, `Method not found: ${message.method}`);
    return undefined;
  }

  /** A prompt: sent now when the session is idle, otherwise after the work before it. */
  sendUser(text, kind = 'turn') {
    this.queue.push({ blocks: [{ type: 'text', text }], kind });
    this.pump();
  }

  /** A prompt for the running turn: Qwen Code takes it at its next drain, or it runs next. */
  steer(text) {
    if (!this.turning) return this.sendUser(text);
    this.steers.push([{ type: 'text', text }]);
    this.wake();
  }

  /** Qwen Code's own continuation (`qwen/control/session/continue`, then a prompt marked to continue). */
  async continueLastTurn() {
    await this.ready;
    const decision = await this.request(SESSION_CONTINUE, { sessionId: this.sessionId });
    if (!decision.accepted) return false;
    this.queue.unshift({ blocks: [], kind: 'turn', meta: { [CONTINUE_LAST_TURN]: true } });
    this.pump();
    return true;
  }

  pump() {
    if (this.running || this.exited) return;
    // Steers Qwen Code did not take before its turn ended run next, together, before the queue.
    const next = this.steers.length ? { blocks: this.steers.splice(0).flat(), kind: 'turn' } : this.queue.shift();
    if (!next) return this.wake();
    this.running = next;
    (async () => {
      try {
        await this.ready;
        // A prompt sent after a move goes to the moved session.
        await this.moving?.catch(() => {});
        await this.prompt(this.sessionId, next.blocks, next.meta);
      } catch (error) {
        process.stderr.write(`qwen session/prompt: ${error.message}\n`);
        // The answer can come before Qwen Code's chat recording holds the error that ended the turn.
        if (!this.exited) await this.afterFailedTurn?.().catch(() => {});
      }
      this.running = undefined;
      this.wake();
      this.pump();
    })();
  }

  /** Cancels the running turn (`session/cancel`) and waits for its answer. */
  async interrupt() {
    if (!this.running) return;
    const turn = this.running;
    this.cancel(this.sessionId);
    while (this.running === turn && !this.exited) await this.changed();
  }

  /** Qwen Code reads its model providers from the settings again (`qwen/control/workspace/model-providers/reload`). */
  async reloadModelProviders() {
    await this.ready;
    await this.request(RELOAD_MODEL_PROVIDERS, { cwd: this.cwd });
  }

  /** Switches the session's model for its next request, without writing it to the user's settings. */
  async setModel(model) {
    await this.ready;
    await this.selectModel(model);
  }

  /** Replaces the permission rules of each kind (`allow`, `ask`, `deny`) in force for the live session. */
  async setPermissionRules(rules) {
    await this.ready;
    for (const [ruleType, list] of Object.entries(rules))
      await this.request(SET_PERMISSION_RULES, { sessionId: this.sessionId, scope: 'user', ruleType, rules: list });
  }

  selectModel(model) {
    return this.request('session/set_model', {
      sessionId: this.sessionId,
      modelId: model,
      _meta: { [MODEL_PERSIST_DEFAULT]: false },
    });
  }

  /**
   * Moves the live session to another working directory (`qwen/control/session/cd`): Qwen Code
   * waits for its running turn to settle, then relocates (answered once it has); prompts sent later
   * wait for that answer.
   */
  move(path) {
    this.moving = (async () => {
      await this.ready;
      await this.request(SESSION_CD, { sessionId: this.sessionId, path });
    })();
    this.moving.catch(() => {});
    return this.moving;
  }

  /** Some work asked of the process (of its one session) is not answered yet. */
  isBusy() {
    return !this.exited && (this.running !== undefined || this.queue.length > 0 || this.steers.length > 0);
  }

  /** A turn runs or waits: what is still to come is more than slash commands. */
  get turning() {
    return (
      !this.exited &&
      (this.running?.kind === 'turn' || this.steers.length > 0 || this.queue.some((item) => item.kind === 'turn'))
    );
  }
}
