import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Refusal } from '../../harness/adapter/stdio-serve.mjs';
import { AgentBook, DEFAULT_AGENT, PermissionBoard, permissionGate } from './agents.mjs';
import { GateBoard } from '../../harness/adapter/kit-tools.mjs';
import { kitTools } from './kit-tools.mjs';
import { readEntries, userEntries, userText } from './session-file.mjs';

/** pi's four default tools: those of its built-in tools it activates, as `pi` starts with its defaults. */
const PI_TOOLS = ['read', 'bash', 'edit', 'write'];

/**
 * The sessions of one pi process, each an `AgentSession` over its own JSONL file
 * (`<storeDir>/sessions/<id>.jsonl`, opened as `pi --session <file>` would), working in the
 * session's location. The kit's session IDs and locations are the adapter's own record
 * (`<storeDir>/kit-sessions.json`): pi names sessions by a UUID it generates.
 */
export class PiSessions {
  constructor(pi, config, diagnostics) {
    this.pi = pi;
    this.config = config;
    this.diagnostics = diagnostics;
    this.gates = new GateBoard();
    this.agents = new AgentBook(join(config.storeDir, 'kit-agents.json'));
    this.permissions = new PermissionBoard();
    /** Per session, the prompts admitted in this process, in admission order: pi keeps no message IDs. */
    this.admissions = new Map();
    this.live = new Map();
    /** Held prompts of sessions closed to be reopened, by session ID. */
    this.carried = new Map();
    this.recordFile = join(config.storeDir, 'kit-sessions.json');
    this.sessionDir = join(config.storeDir, 'sessions');
    this.compaction = { contextWindow: 200_000, maxTokens: 16_384, reserveTokens: undefined, modelWindows: {} };
    mkdirSync(this.sessionDir, { recursive: true });
    this.records = existsSync(this.recordFile) ? JSON.parse(readFileSync(this.recordFile, 'utf8')) : {};
  }

  create(id, location) {
    const sessionId = id ?? `session_${this.config.instance}_${Object.keys(this.records).length + 1}`;
    if (this.records[sessionId]) return { sessionId, created: false };
    this.records[sessionId] = { location };
    this.saveRecords();
    return { sessionId, created: true };
  }

  record(sessionId) {
    const record = this.records[sessionId];
    if (!record) throw new Refusal('not-found', `no session ${sessionId}`);
    return record;
  }

  file(sessionId) {
    this.record(sessionId);
    return join(this.sessionDir, `${sessionId}.jsonl`);
  }

  entries(sessionId) {
    return readEntries(this.file(sessionId));
  }

  /**
   * The live pi session, opened on first use: pi reads its resources (AGENTS.md, skills), and the
   * date its system prompt names, when a session opens. One marked stale (the host environment
   * changed while it ran) is reopened here once pi has settled, keeping the prompts it held.
   */
  async open(sessionId) {
    const existing = this.live.get(sessionId);
    if (existing) {
      const live = await existing.ready;
      if (!live.stale || live.running) return live;
      await this.close(sessionId);
      return this.open(sessionId);
    }
    const state = new LiveSession();
    state.held = this.carried.get(sessionId) ?? [];
    this.carried.delete(sessionId);
    this.live.set(sessionId, state);
    state.ready = this.start(sessionId, state);
    return state.ready;
  }

  async start(sessionId, state) {
    const { pi } = this;
    const location = this.record(sessionId).location;
    const authStorage = pi.AuthStorage.inMemory();
    const modelRegistry = pi.ModelRegistry.inMemory(authStorage);
    this.registerProvider(modelRegistry);
    const settingsManager = pi.SettingsManager.inMemory(this.settings());
    const agent = () => this.agentOf(sessionId);
    // pi's own resource loader, as createAgentSession builds it, with two additions: the adapter's
    // permission gate as an extension (a `tool_call` handler) and the skills the session's agent
    // may load (`skillsOverride`, applied whenever the loader reloads, so at every open). The gate
    // is there only where an agent denies or asks: pi waits for its session file's writes before a
    // tool runs only when some extension handles `tool_call`, so an idle gate would change that.
    const gate = this.agents.gates()
      ? [
          permissionGate({
            sessionId,
            agents: this.agents,
            permissions: this.permissions,
            turnAgent: () => state.turnAgent ?? agent(),
          }),
        ]
      : [];
    const resourceLoader = new pi.DefaultResourceLoader({
      cwd: location,
      agentDir: this.config.home,
      settingsManager,
      extensionFactories: [
        ...gate,
        // What pi hands its extensions before each prompt's run: the system prompt it sends and what
        // it built it from (docs/extensions.md, `before_agent_start`); the `epoch` command reads it.
        (api) =>
          api.on('before_agent_start', (event) => {
            state.told = { systemPrompt: event.systemPrompt, options: event.systemPromptOptions };
          }),
      ],
      skillsOverride: ({ skills, diagnostics }) => ({
        skills: skills.filter((skill) => this.agents.permitsSkill(agent(), skill.name)),
        diagnostics,
      }),
    });
    await resourceLoader.reload();
    // No model is passed: pi restores the one the session file last selected (a `model_change`
    // entry), else takes the settings' default, the kit's configured model, as `pi --session` does.
    const { session } = await pi.createAgentSession({
      cwd: location,
      agentDir: this.config.home,
      authStorage,
      modelRegistry,
      thinkingLevel: 'off',
      // No allowlist of tools: pi activates its four default tools and every tool an extension or
      // the SDK registers (the kit's tools, a location's contributed tools).
      // The kit's tools work where pi's own do: in the directory the session was opened in.
      customTools: kitTools(pi.defineTool, this.gates, () => location),
      sessionManager: pi.SessionManager.open(this.file(sessionId), this.sessionDir, location),
      settingsManager,
      resourceLoader,
    });
    // The agent's denied tools leave the tools pi offers, as `setActiveToolsByName` does for pi's presets.
    session.setActiveToolsByName(this.permittedTools(sessionId, session));
    state.attach(session, this.diagnostics, agent);
    return state;
  }

  /**
   * Notes an admission: the kit's message ID, its delivery, and as its admission sequence the
   * position of the last entry pi had written to the session file then (0 before pi wrote any).
   */
  noteAdmission(sessionId, { messageId, text, delivery }) {
    const admittedSeq = this.entries(sessionId).at(-1)?.seq ?? 0;
    const list = this.admissions.get(sessionId) ?? [];
    const note = { messageId, text, delivery, admittedSeq };
    list.push(note);
    this.admissions.set(sessionId, list);
    return note;
  }

  /** Drops the note of an admission pi refused: nothing of it is pending or written. */
  forgetAdmission(sessionId, note) {
    const list = this.admissions.get(sessionId) ?? [];
    list.splice(list.indexOf(note), 1);
  }

  /**
   * The inbox as pi shows it, in admission order. Promoted: the user entries of the session file,
   * each with its position as the promotion sequence. Pending: what pi still holds, its steering
   * and follow-up queues (`getSteeringMessages()`, `getFollowUpMessages()`), a message its loop
   * took but has not yet written to the file (pi writes a new session's file only once an assistant
   * message exists), and the prompts the adapter holds itself. pi keeps texts only: each is paired,
   * by text in admission order, with the adapter's note of its admission (message ID, delivery,
   * admission sequence). A user entry written before this process started has no note: its ID is
   * pi's entry ID, its delivery steer (the adapter's default) and its admission sequence the entry
   * before it, the latest it can have been. An admitted prompt pi no longer holds has no row.
   */
  async inbox(sessionId) {
    const entries = this.entries(sessionId);
    const notes = (this.admissions.get(sessionId) ?? []).map((note) => ({ ...note }));
    const noted = (note, row) => {
      note.row = { messageId: note.messageId, delivery: note.delivery, admittedSeq: note.admittedSeq, ...row };
    };
    const unnoted = [];
    for (const entry of userEntries(entries)) {
      const text = userText(entry.message);
      const row = { text, state: 'promoted', promotedSeq: entry.seq };
      const note = notes.find((n) => !n.row && n.text === text && n.admittedSeq < entry.seq);
      if (note) noted(note, row);
      else unnoted.push({ messageId: entry.id, delivery: 'steer', admittedSeq: entry.seq - 1, ...row });
    }
    const live = await this.live.get(sessionId)?.ready;
    const pending = [];
    if (live) {
      const written = new Set(entries.map((entry) => entry.id));
      const taken = userEntries(live.session.sessionManager.getEntries()).filter((entry) => !written.has(entry.id));
      pending.push(...taken.map((entry) => userText(entry.message)));
      pending.push(...live.session.getSteeringMessages(), ...live.session.getFollowUpMessages());
      pending.push(...live.held.map((held) => held.text), ...(live.afterCompaction ?? []).map((held) => held.text));
    } else pending.push(...(this.carried.get(sessionId) ?? []).map((held) => held.text));
    for (const text of pending) {
      const note = notes.find((n) => !n.row && n.text === text);
      if (note) noted(note, { text, state: 'pending', promotedSeq: null });
    }
    const rows = [...unnoted, ...notes.filter((note) => note.row).map((note) => note.row)];
    return {
      rows: rows.map(({ messageId, text, delivery, state, admittedSeq, promotedSeq }) => ({
        messageId,
        text,
        delivery,
        state,
        admittedSeq,
        promotedSeq,
      })),
    };
  }

  /**
   * The epoch as pi shows it: the system prompt pi sent with the last prompt of the open session
   * and, per source, what pi built it from: each context file (`AGENTS.md`) by its path, its text
   * as the value, and each skill pi lists by its file, with its name and description. pi keeps
   * neither beyond the open session (it rebuilds both when a session opens), and renders no
   * removal text. Before pi's first prompt in the open session there is none.
   */
  async epoch(sessionId) {
    this.record(sessionId);
    const told = (await this.live.get(sessionId)?.ready)?.told;
    if (!told) return { baseline: null, snapshot: {} };
    const snapshot = {};
    for (const { path, content } of told.options.contextFiles ?? []) snapshot[path] = { value: content };
    for (const { filePath, name, description } of told.options.skills ?? [])
      snapshot[filePath] = { value: { name, description } };
    return { baseline: told.systemPrompt, snapshot };
  }

  /** The agent a session runs as: the one last selected, else the default agent. */
  agentOf(sessionId) {
    return this.records[sessionId]?.agent ?? DEFAULT_AGENT;
  }

  /**
   * The tools pi activates by default, its four default tools and every tool not built in (the
   * kit's, a location's contributed ones; `getAllTools()` with their `sourceInfo`), less those the
   * session's agent denies.
   */
  permittedTools(sessionId, session) {
    const agent = this.agentOf(sessionId);
    return session
      .getAllTools()
      .filter((tool) => tool.sourceInfo.source !== 'builtin' || PI_TOOLS.includes(tool.name))
      .map((tool) => tool.name)
      .filter((tool) => this.agents.rule(agent, tool) !== 'deny');
  }

  /**
   * Selects the session's agent (null: the default one), kept in the adapter's record of the session
   * as pi keeps a selected model in its file, then applies it: a running session offers the agent's
   * tools from pi's next run (`setActiveToolsByName`) and is reopened with its skills once it has
   * settled; an idle one is reopened at its next use, its resource loader filtering the skills.
   */
  async selectAgent(sessionId, agent) {
    const record = this.record(sessionId);
    if (agent === null) delete record.agent;
    else record.agent = agent;
    this.saveRecords();
    await this.applyAgent(sessionId);
  }

  /** Defines an agent; the open sessions running as it take its rules as a selection would. */
  async defineAgent(definition) {
    const gated = this.agents.gates();
    this.agents.define(definition);
    // The first rule that denies or asks needs the gate in every open session.
    if (!gated && this.agents.gates()) return this.reopenAll();
    for (const sessionId of [...this.live.keys()]) {
      if (this.agentOf(sessionId) === definition.name) await this.applyAgent(sessionId);
    }
  }

  async applyAgent(sessionId) {
    const state = this.live.get(sessionId);
    if (!state) return;
    const live = await state.ready;
    if (live.running) {
      live.session.setActiveToolsByName(this.permittedTools(sessionId, live.session));
      live.stale = true;
    } else await this.close(sessionId);
  }

  /**
   * The kit's provider as a pi provider: `openai-completions` or `openai-responses` at the kit's
   * base URL, or `anthropic-messages` at the base URL without `/v1` (the Anthropic SDK appends
   * `/v1/messages`).
   * Every model the kit names is one of its models, each with its own context window.
   */
  registerProvider(modelRegistry) {
    const { dialect, baseUrl, apiKey, model, models = [] } = this.config.provider;
    const anthropic = dialect === 'anthropic-messages';
    modelRegistry.registerProvider('kit', {
      baseUrl: anthropic ? baseUrl.replace(/\/v1\/?$/, '') : baseUrl,
      apiKey,
      api: anthropic
        ? 'anthropic-messages'
        : dialect === 'openai-responses'
          ? 'openai-responses'
          : 'openai-completions',
      models: [model, ...models].map((id) => ({
        id,
        name: id,
        reasoning: false,
        input: ['text', 'image'],
        cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
        contextWindow: this.compaction.modelWindows[id] ?? this.compaction.contextWindow,
        maxTokens: this.compaction.maxTokens,
      })),
    });
  }

  /**
   * A model switch through pi's own `setModel` (what its `/model` command calls): it records a
   * `model_change` entry and applies from the next run pi starts. A null model is the configured one.
   */
  async selectModel(sessionId, model) {
    const live = await this.open(sessionId);
    const selected = live.session.modelRegistry.find('kit', model ?? this.config.provider.model);
    if (!selected) throw new Refusal('invalid-input', `no model ${model}`);
    await live.session.setModel(selected);
  }

  /**
   * pi's settings for every session: retries off (pi's own retries sleep 2 s x 2^n in real time and
   * the provider SDK retries twice more; no scenario may hang on them), compaction with the budget
   * the kit configured, and steers drained all at once (`steeringMode: "all"`, a documented pi
   * setting; its default, one steer per turn, would break INB-08 by configuration alone).
   * Follow-ups keep pi's default, one per run, which INB-10 asks for.
   */
  settings() {
    return {
      defaultProvider: 'kit',
      defaultModel: this.config.provider.model,
      steeringMode: 'all',
      retry: { enabled: false, provider: { maxRetries: 0 } },
      compaction: {
        enabled: true,
        ...(this.compaction.reserveTokens === undefined ? {} : { reserveTokens: this.compaction.reserveTokens }),
      },
      enableInstallTelemetry: false,
    };
  }

  /**
   * pi compacts when the context the provider reported exceeds `contextWindow - reserveTokens`; the
   * kit's budget maps onto the model's context window and output allowance, and a reserve of the
   * greater of the output allowance and the buffer (CMP-01). Sessions opened later read it; open
   * ones are reopened.
   */
  async configureCompaction({ contextWindow, outputAllowance, buffer, modelWindows = {} }) {
    this.compaction = {
      contextWindow,
      maxTokens: Math.max(outputAllowance, 1),
      reserveTokens: Math.max(outputAllowance, buffer),
      modelWindows,
    };
    for (const id of [...this.live.keys()]) await this.close(id);
  }

  async close(sessionId) {
    const state = this.live.get(sessionId);
    if (!state) return;
    this.live.delete(sessionId);
    const live = await state.ready;
    // Prompts held for `session.run` are the adapter's, not pi's: the reopened session keeps them.
    if (!this.live.has(sessionId)) this.carried.set(sessionId, live.held);
    await live.settle();
    live.session.dispose();
  }

  /**
   * After a change of the host environment: pi reads it when a session opens (the system prompt's
   * date in the local time zone) and when bash spawns. Idle sessions are closed now and reopen at
   * their next use; a running one is marked and reopened once it has settled, as pi cannot rebuild
   * a running session.
   */
  async reopenAll() {
    for (const [sessionId, state] of [...this.live]) {
      const live = await state.ready;
      if (live.running) live.stale = true;
      else await this.close(sessionId);
    }
  }

  /**
   * After a change of a location's project extensions (a tool contribution): pi loads them when a
   * session opens (or on `/reload`), so the open sessions working there are reopened, a running
   * one once it has settled, and their next run offers the tools the directory now contributes.
   */
  async reopenAt(location) {
    for (const [sessionId, state] of [...this.live]) {
      if (this.records[sessionId]?.location !== location) continue;
      const live = await state.ready;
      if (live.running) live.stale = true;
      else await this.close(sessionId);
    }
  }

  /**
   * pi fixes a session's working directory when it opens (its tools are built for it): a session
   * moves by closing and reopening it elsewhere, as `pi --session <file>` run from the destination.
   * pi has no means to move a session while its agent runs, nor to fence its next turn.
   */
  async move(sessionId, location) {
    const state = this.live.get(sessionId);
    if (state && (await state.ready).running) {
      throw new Refusal('unsupported', 'pi cannot change the working directory of a running session');
    }
    await this.close(sessionId);
    this.record(sessionId).location = location;
    this.saveRecords();
  }

  saveRecords() {
    writeFileSync(this.recordFile, JSON.stringify(this.records, null, 2));
  }

  terminate() {
    for (const state of this.live.values()) state.session?.dispose();
  }

  /** Stops every session's work (a blocked tool call gets the abort signal), then disposes of them. */
  async stopAll() {
    this.permissions.release();
    for (const state of this.live.values()) {
      const live = await state.ready.catch(() => undefined);
      if (live?.running) await live.session.abort();
    }
    this.terminate();
    this.live.clear();
  }
}

/** One open pi session and the work the adapter started on it. */
class LiveSession {
  session = undefined;
  ready = undefined;
  /** Prompts held for `session.run`: admitted with `resume: false` while pi was idle. */
  held = [];
  /** The host environment changed while pi ran: reopen the session once it has settled. */
  stale = false;
  /**
   * Input admitted during a requested compaction, submitted once it ends (undefined when none
   * runs): pi's own interactive mode queues it so, as its agent loop is not there to take a steer.
   */
  afterCompaction = undefined;
  /** Work the adapter started and has not seen settle (prompts, compactions). */
  work = new Set();
  /** pi restarts its loop 100 ms after a compaction that left queued messages or overflow to retry. */
  kickPending = false;
  onAgentStart = [];
  /** The agent selected when pi's current provider turn started: its rules govern that turn's tool calls. */
  turnAgent = undefined;
  /** The system prompt and its sources pi handed its extensions at the last prompt (`before_agent_start`). */
  told = undefined;

  attach(session, diagnostics, agent) {
    this.session = session;
    session.subscribe((event) => {
      if (event.type === 'turn_start') this.turnAgent = agent();
      if (event.type === 'agent_start') {
        this.kickPending = false;
        for (const notify of this.onAgentStart.splice(0)) notify();
      }
      if (event.type === 'compaction_end') {
        if (event.errorMessage) diagnostics.push(event.errorMessage);
        if (event.result && (event.willRetry || session.agent.hasQueuedMessages())) this.kickPending = true;
      }
    });
  }

  get running() {
    return this.session.isStreaming || this.work.size > 0 || this.session.isCompacting || this.kickPending;
  }

  track(promise, diagnostics) {
    const tracked = promise.catch((error) => diagnostics.push(error instanceof Error ? error.message : String(error)));
    this.work.add(tracked);
    tracked.finally(() => this.work.delete(tracked));
    return tracked;
  }

  /** Resolves once pi has nothing running: no agent loop, no queued persistence or compaction, no pending restart of its loop. */
  async settle() {
    for (;;) {
      await Promise.all([...this.work]);
      await this.session.agent.waitForIdle();
      // pi persists entries and runs auto-compaction in an event queue the agent loop does not await.
      await this.session._agentEventQueue;
      if (this.kickPending) {
        await new Promise((resolve) => {
          this.onAgentStart.push(resolve);
          // pi's own timer is 100 ms; a loop that refuses to restart must not hold the kit forever.
          setTimeout(() => {
            this.kickPending = false;
            resolve();
          }, 2_000).unref();
        });
        continue;
      }
      if (!this.running) return;
    }
  }
}
