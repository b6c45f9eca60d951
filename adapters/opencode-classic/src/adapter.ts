import { mkdirSync, writeFileSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  DEFAULT_MODEL_LIMIT,
  type OpencodeServer,
  PROVIDER_ID,
  PROVIDER_PACKAGES,
  runtimeVersion,
  type ServerSettings,
  withAgentDefined,
  withSkillDefined,
} from '../../opencode/shared/server/server.js';
import { SilentStop, type StdioAdapter } from '../../../harness/adapter/stdio-serve.mjs';
import { opencodeServer } from '../../opencode/src/runtime.js';
import { ServerHandle } from '../../opencode/shared/server/server-handle.js';
import { loggedWarnings } from '../../opencode/shared/server/server-log.js';
import {
  ApiError,
  type Command,
  type HelloConfig as RunnerHelloConfig,
  runnerAdapter,
} from '../../opencode/shared/server/runner-adapter.js';
import { openServerStore, scenarioOpenedAt, toolOutputDirectory } from '../../opencode/shared/server/server-store.js';
import { ClassicApi, type ClassicMessage } from './classic-api.js';
import { historyPage } from './history-page.js';
import { KIT_METADATA, compactions, failures, history, kitEvents } from './projection.js';
import { AdapterState, type ConfiguredSettings, type SessionRecord } from './adapter-state.js';

/** Which process over the scenario's store this is: 0 first, then 1, 2, ... after each restart. */
interface HelloConfig extends RunnerHelloConfig {
  instance: number;
}

/** Where this folder's pinned opencode-ai was installed. */
const PACKAGE_DIR = join(dirname(fileURLToPath(import.meta.url)), '..', 'node_modules');
const SERVER = opencodeServer(PACKAGE_DIR);

const POLL_MS = 50;
/** An idle session whose newest prompt has no answer after this long stopped silently. */
const SILENT_STOP_MS = 15_000;

/** OpenCode 1.18.33's classic compaction (`SessionCompaction`, `ProviderTransform.maxOutputTokens`). */
const OUTPUT_TOKEN_MAX = 32_000;
const LIMITS = {
  contextWindow: DEFAULT_MODEL_LIMIT.context,
  outputAllowance: DEFAULT_MODEL_LIMIT.output,
  // No `limit.input` is configured, so the reserve is the model's output allowance, capped.
  outputAllowanceCap: OUTPUT_TOKEN_MAX,
  // `preserve_recent_tokens`: a quarter of the usable window, between 2000 and 15000 tokens.
  recentContextTokens: 15_000,
  // The summary request asks for the compaction model's output allowance.
  summaryOutputTokens: DEFAULT_MODEL_LIMIT.output,
};

/** The budgets the adapter writes until the kit configures its own: the models' limits. */
const DEFAULT_COMPACTION = {
  contextWindow: DEFAULT_MODEL_LIMIT.context,
  outputAllowance: DEFAULT_MODEL_LIMIT.output,
  buffer: 20_000,
};

/** Commands the classic runner has no equivalent for, with the reason the README records. */
const UNSUPPORTED: Record<string, string> = {
  'session.run': 'the classic runner runs a session only for a new prompt',
  'session.wake': 'the classic runner has no inbox: a prompt runs when it is sent',
  'clock.set': 'the classic runner retries on real time; it has no virtual clock',
  'retry.wait': 'the classic runner retries on real time; it has no virtual clock',
  inbox: 'the classic runner has no inbox: a prompt is a message as soon as it is sent',
  epoch: 'the classic runner keeps no Context Epoch',
  'gate.wait': 'OpenCode runs only its own tools: the kit expresses its gate through the bash tool',
  'gate.open': 'OpenCode runs only its own tools: the kit expresses its gate through the bash tool',
  'context.contributor.register': 'no plugin-defined context sources reachable from outside',
  'context.contributor.remove': 'no plugin-defined context sources reachable from outside',
  'context.source.set': 'no plugin-defined context sources reachable from outside',
  'context.reconcile': 'no context reconciliation without a turn',
  'fault.crash': 'no crash points inside a published binary',
  'fault.system-message-writes': 'no fault hooks inside a published binary',
  'fault.tool-output-writes': 'no fault hooks inside a published binary',
  'tool-output.held': 'no fault hooks inside a published binary',
  'pty.overlay.set': 'no host environment overlay reachable from outside',
  'pty.environment': 'no host environment overlay reachable from outside',
};

/** The compaction agent's prompt, sent as the system prompt of every summary request. */
const COMPACTION_SYSTEM_PROMPT = [
  'You are a context summarization agent. You are given a conversation between a user and an agent. Your goal is to produce a structured summary matching the format specified so another coding agent can continue the work.',
  'Always follow the exact output structure requested by the user prompt. Keep every section, preserve exact file paths and identifiers when known, and prefer terse bullets over paragraphs.',
  'Do not continue the conversation. Do not respond to any questions in the conversation. Only output the structured summary in the exact format requested by the user prompt. Respond in the same language as the conversation.\n',
].join('\n\n');

/** What the adapter computes itself because the classic routes serve no answer for it. */
const EMULATED: Record<string, string> = {
  'session.idle':
    'polls GET /session/status until the session is neither busy nor retrying and its newest user message was answered',
  'prompt.admit':
    'POST /session/:id/prompt_async; the message exists at once (no inbox), so it is promoted and never a duplicate',
  'prompt.submit':
    'POST /session/:id/prompt_async, refused as busy only when OpenCode refuses it (it does not: the prompt joins the running loop)',
  'session.select':
    'the classic routes take the model and the agent with each prompt: the adapter sends the selected ones with every later prompt',
  failures:
    'the errors recorded on assistant messages; a doom-loop permission the kit declined is reported as the failure doom-loop',
  'events.subscribe':
    'the adapter keeps the cursor; each events.take reads POST /sync/history after the last event it returned (GET /event carries the same events live, without their sequence numbers)',
  'events.take':
    "the durable events POST /sync/history holds after the subscription's cursor, which then moves past them",
};

export function createAdapter(): StdioAdapter {
  return runnerAdapter(
    SERVER.title,
    (config, kept: ServerHandle | undefined) => ClassicRuntime.open(config as HelloConfig, kept),
    () => ({
      runtime: { name: 'opencode-classic', version: runtimeVersion(SERVER), language: 'typescript' },
      profiles: ['core', 'continuation', 'sol'],
      capabilities: ['busy-submit', 'manual-compaction', 'restart', 'process-reuse', 'host-env', 'history-paging'],
      shell: {
        tool: 'bash',
        commandField: 'command',
        workdirField: 'workdir',
        statusText: 'Command exited with code {status}.',
      },
      emulated: EMULATED,
      // What the classic runner has no interface for at all (the adapter answers unsupported).
      absent: ['epoch', 'session.run', 'session.wake'],
      patch: { tool: 'apply_patch', patchField: 'patchText' },
      // The read tool takes the file's path as `filePath` (relative paths resolve in the session's directory).
      read: { tool: 'read', pathField: 'filePath' },
      texts: {
        // What `MessageV2.toModelMessages` sends for a tool output whose `time.compacted` is set.
        'pruning.replacement': '[Old tool result content cleared]',
        // `SessionCompaction.prune` skips the messages of the newest two user turns.
        'pruning.protects-last-two-turns': 'yes',
        // The synthetic text `SessionCompaction.process` appends after an automatic compaction.
        'continuation.continue':
          'Continue if you have next steps, or stop and ask for clarification if you are unsure how to proceed.',
        'prompt.default-delivery': 'steer',
        // The system prompt of the compaction agent (`SessionCompaction.process` sends no other).
        'compaction.system-prompt': COMPACTION_SYSTEM_PROMPT,
        // The one user message of a summary request holds the conversation serialized, then the
        // instructions; this sentence of them is in every summary request.
        'compaction.prompt':
          'Output exactly the Markdown structure shown inside <template> and keep the section order unchanged.',
      },
      limits: LIMITS,
    }),
    UNSUPPORTED,
  );
}

type Session = SessionRecord;

class ClassicRuntime {
  /** The kit's names of OpenCode's sessions and messages, and what it configured: kept across restarts. */
  private readonly state: AdapterState;
  private readonly commands: Record<string, (c: Command, api: ClassicApi) => Promise<unknown>>;
  /** Each subscription's session and the kit's sequence number of the last event it returned. */
  private readonly subscriptions = new Map<string, { session: Session; after: number }>();
  /** Commands that only change what the server is started with: none needs a server running. */
  private readonly settingChanges: Record<string, (c: Command) => Promise<unknown>>;

  /**
   * The runtime of one hello. OpenCode's store (database, data and configuration directories) is a
   * server store in the run's directory, which the scenario's store links to: a scenario's first
   * process serves it from the store the scenario before used, taking over that scenario's server
   * once a command needs one if it serves these settings then; a restarted process starts its own
   * server over the store the scenario's store links to. The adapter's names for OpenCode's IDs
   * stay in the scenario's own store. Managed tool output starts empty for each scenario, and the
   * log is read from when the scenario's first process opened, restarts included.
   */
  static async open(config: HelloConfig, kept: ServerHandle | undefined): Promise<ClassicRuntime> {
    if (!(config.provider.dialect in PROVIDER_PACKAGES))
      throw new ApiError('unsupported', `dialect ${config.provider.dialect} is not wired`);
    const store = await openServerStore(SERVER, config, kept);
    return new ClassicRuntime(config, store, kept, scenarioOpenedAt(config.storeDir));
  }

  private opencode: ServerHandle;

  private constructor(
    config: HelloConfig,
    serverStore: string,
    /** The server the scenario before left, until a command needs one. */
    private left: ServerHandle | undefined,
    /** When the scenario's first process opened (ms): the log before it is another scenario's. */
    private readonly openedAt: number,
  ) {
    // A restarted process finds OpenCode's sessions in the server store, and the adapter's names for
    // them in the scenario's store.
    this.state = new AdapterState(config.storeDir);
    const settings: ServerSettings = {
      runtime: SERVER,
      storeDir: serverStore,
      home: config.home,
      dialect: config.provider.dialect,
      baseUrl: config.provider.baseUrl,
      apiKey: config.provider.apiKey,
      model: config.provider.model,
      imageInput: true,
      // Pruning stays as OpenCode ships it (off) unless the kit turns it on or off.
      compaction: DEFAULT_COMPACTION,
      ...(config.provider.models?.length ? { otherModels: config.provider.models } : {}),
      ...(config.timeZone ? { timeZone: config.timeZone } : {}),
      ...this.state.settings,
    };
    this.opencode = new ServerHandle(settings, true, () => pluginDependenciesInstalled(this.settings.home));
    this.commands = {
      'session.create': (c, api) => this.createSession(c, api),
      'prompt.admit': (c, api) => this.send(c, api),
      'prompt.submit': async (c, api) => ({ messageId: (await this.send(c, api)).messageId }),
      'session.idle': (c, api) => this.idle(this.session(c), api),
      'session.interrupt': (c, api) => this.interrupt(this.session(c), api),
      'session.move': (c, api) => this.move(this.session(c), String(c.location), api),
      'session.select': async (c) => this.select(c),
      history: async (c, api) => {
        const session = this.session(c);
        return { messages: history(await api.messages(session.id, session.directory), this.state.kitIds) };
      },
      'history.page': async (c, api) => {
        const session = this.session(c);
        const before = c.before === undefined ? undefined : String(c.before);
        const messages = await historyPage(
          (limit, cursor) => api.messagePage(session.id, session.directory, limit, cursor),
          this.state.kitIds,
          Number(c.limit),
          before,
        );
        if (!messages) throw new ApiError('not-found', `no message ${before} in session ${c.sessionId}`);
        return { messages };
      },
      events: async (c, api) => {
        const session = this.session(c);
        return { events: await this.events(session, Number(c.after ?? 0), api) };
      },
      'events.subscribe': async (c, api) => {
        const session = this.session(c);
        await api.call('GET', `/session/${encodeURIComponent(session.id)}`, session.directory);
        const id = `sub_${this.subscriptions.size + 1}`;
        this.subscriptions.set(id, { session, after: Number(c.after ?? 0) });
        return { subscription: id };
      },
      'events.take': async (c, api) => {
        const subscription = this.subscriptions.get(String(c.subscription));
        if (!subscription) throw new ApiError('not-found', `no subscription ${c.subscription}`);
        const events = await this.events(subscription.session, subscription.after, api);
        subscription.after = events.at(-1)?.seq ?? subscription.after;
        return { events };
      },
      failures: async (c, api) => {
        const session = this.session(c);
        const recorded = failures(await api.messages(session.id, session.directory));
        const doomLoop = this.state.declinedDoomLoops.has(session.id)
          ? [{ code: 'doom-loop' as const, message: 'the repeated tool call was declined' }]
          : [];
        return { failures: [...recorded, ...doomLoop] };
      },
      'compaction.request': (c, api) => this.summarize(this.session(c), api),
      compactions: async (c, api) => {
        const session = this.session(c);
        return { compactions: compactions(await api.messages(session.id, session.directory)) };
      },
      'permission.pending': async (c, api) => ({ requests: await this.permissionRequests(this.session(c), api) }),
      'permission.wait': async (c, api) => this.permissionAsked(this.session(c), api),
      'permission.reply': async (c, api) => this.replyToPermission(String(c.id), Boolean(c.approve), api),
      'tool-output.files': async () => this.toolOutputFiles(),
      // OpenCode's own log in the scenario's store, every process over it included (restarts too).
      diagnostics: async () => ({
        diagnostics: await loggedWarnings(SERVER, this.settings.storeDir, this.openedAt),
      }),
    };
    this.settingChanges = {
      'tool-output.configure': async (c) =>
        this.reconfigure({ toolOutput: { maxLines: Number(c.maxLines), maxBytes: Number(c.maxBytes) } }),
      'compaction.configure': async (c) => {
        // OpenCode replaces a pruned output with one fixed text ("[Old tool result content cleared]"
        // in the shipped binary), no function of what was removed and nothing a setting changes.
        if (c.prunedMessage !== undefined)
          throw new ApiError(
            'unsupported',
            'OpenCode words a pruned output with one fixed text, which no setting changes',
          );
        return this.reconfigure({
          compaction: {
            contextWindow: Number(c.contextWindow),
            outputAllowance: Number(c.outputAllowance),
            buffer: Number(c.buffer),
            ...(c.modelWindows ? { modelWindows: c.modelWindows as Record<string, number> } : {}),
            ...(c.auto === undefined ? {} : { auto: Boolean(c.auto) }),
            ...(c.prune === undefined ? {} : { prune: Boolean(c.prune) }),
            ...(typeof c.model === 'string' ? { model: c.model } : {}),
          },
        });
      },
      // The agent record and the skill folders of `opencode.json`, as the shared server code writes them.
      'agent.define': async (c) => this.reconfigure({ agents: withAgentDefined(this.settings.agents, c) }),
      'skill.define': async (c) => this.reconfigure({ skills: withSkillDefined(this.settings.skills, c) }),
      // A variable of the server's environment, which OpenCode reads when it starts.
      'host.env.set': async (c) => {
        const { [String(c.name)]: _, ...others } = this.settings.environment ?? {};
        await this.reconfigure({
          environment: c.value === null ? others : { ...others, [String(c.name)]: String(c.value) },
        });
      },
    };
  }

  async handle(command: Command): Promise<unknown> {
    const change = this.settingChanges[command.cmd];
    if (change) return change(command);
    const run = this.commands[command.cmd];
    if (!run) throw new ApiError('unsupported', `the classic runner has no equivalent of ${command.cmd}`);
    return run(command, new ClassicApi((await this.started()).url));
  }

  async stop(): Promise<void> {
    await this.opencode.stop();
    await this.left?.stop();
  }

  stopNow(): void {
    this.opencode.stopNow();
    this.left?.stopNow();
  }

  /**
   * Ends the scenario's runtime and leaves its server to the next: every session of this scenario
   * still running is aborted and waited for (the scenario before ended the same way). A runtime that
   * never needed a server passes on the one it was left.
   */
  async close(): Promise<ServerHandle> {
    if (this.left) return this.left;
    if (this.opencode.processIds().length > 0) {
      const api = new ClassicApi((await this.started()).url);
      for (const session of this.state.sessions.values())
        if ((await api.status(session.id, session.directory)) !== 'idle') await this.interrupt(session, api);
    }
    return this.opencode;
  }

  private get settings(): ServerSettings {
    return this.opencode.settings;
  }

  /** The server, taking over the one the scenario before left when it serves this runtime's settings now. */
  private async started(): Promise<OpencodeServer> {
    const left = this.left;
    if (left) {
      this.left = undefined;
      // The new home is OpenCode's configuration directory from now on: nothing to install there either.
      pluginDependenciesInstalled(this.settings.home);
      if (await left.takeOver(this.settings)) this.opencode = left;
      else await left.stop();
    }
    return this.opencode.started();
  }

  /** A setting of OpenCode's configuration or environment, kept for a restarted process too. */
  private reconfigure(change: ConfiguredSettings): Promise<void> {
    this.state.settings = { ...this.state.settings, ...change };
    this.state.save();
    return this.opencode.reconfigure(change);
  }

  /**
   * `POST /session/:id/summarize` writes a compaction request and runs the loop, which compacts
   * at once; the route answers once the loop has ended.
   */
  private async summarize(session: Session, api: ClassicApi) {
    await api.call('POST', `/session/${encodeURIComponent(session.id)}/summarize`, session.directory, {
      providerID: PROVIDER_ID,
      modelID: session.model ?? this.settings.model,
      auto: false,
    });
  }

  /**
   * The classic routes take the model and the agent with each prompt: the selection is sent with
   * every later one. A model the configuration does not name yet is written, and read by the
   * running server again; an agent is one `opencode.json` defines (the build agent when none is selected).
   */
  private async select(c: Command) {
    const session = this.session(c);
    if ('agent' in c) {
      if (c.agent === null || c.agent === undefined) delete session.agent;
      else session.agent = String(c.agent);
    }
    if ('model' in c) {
      const model = c.model === null || c.model === undefined ? this.settings.model : String(c.model);
      if (model !== this.settings.model && !this.settings.otherModels?.includes(model))
        await this.reconfigure({ otherModels: [...(this.settings.otherModels ?? []), model] });
      session.model = model;
    }
    this.state.save();
  }

  /** The session's durable events after the kit's sequence number `after` (OpenCode's is one below). */
  private async events(session: Session, after: number, api: ClassicApi) {
    return kitEvents(await api.events(session.id, session.directory, after > 0 ? after - 1 : undefined));
  }

  private session(c: Command): Session {
    const session = this.state.sessions.get(String(c.sessionId));
    if (!session) throw new ApiError('not-found', `no session ${c.sessionId}`);
    return session;
  }

  private async createSession(c: Command, api: ClassicApi) {
    const kitId = c.id === undefined ? undefined : String(c.id);
    const known = kitId === undefined ? undefined : this.state.sessions.get(kitId);
    if (known) return { sessionId: kitId, created: false };
    const directory = String(c.location);
    // A session with a title of its own: a default title has the first prompt send a provider
    // request of its own for one (`SessionPrompt.ensureTitle`), which the kit did not script.
    const created = await api.call<{ id: string }>('POST', '/session', directory, {
      title: `kit ${kitId ?? 'session'}`,
    });
    const name = kitId ?? created.id;
    this.state.sessions.set(name, { id: created.id, directory });
    this.state.save();
    return { sessionId: name, created: true };
  }

  /** A prompt becomes a message at once and runs the session's loop, or joins the running one. */
  private async send(c: Command, api: ClassicApi) {
    const session = this.session(c);
    const prompt = c.prompt as {
      parts: (
        | { type: 'text'; text: string }
        | { type: 'image' | 'file'; mediaType: string; data: string; filename?: string; source?: string }
      )[];
      metadata?: Record<string, unknown>;
    };
    const metadata = prompt.metadata ?? (c.metadata as Record<string, unknown> | undefined);
    const parts = prompt.parts.map((part, index) =>
      part.type === 'text'
        ? {
            type: 'text',
            text: part.text,
            ...(metadata === undefined ? {} : { metadata: { [KIT_METADATA]: metadata } }),
          }
        : {
            type: 'file',
            mime: part.mediaType,
            url: `data:${part.mediaType};base64,${part.data}`,
            filename: part.filename ?? `${part.type}-${index + 1}`,
            // Where it came from is session-level metadata: OpenCode keeps a file part's source beside it.
            ...(part.source === undefined
              ? {}
              : { source: { type: 'file', path: part.source, text: { value: '', start: 0, end: 0 } } }),
          },
    );
    const before = new Set((await api.messages(session.id, session.directory)).map((m) => m.info.id));
    await api.call('POST', `/session/${encodeURIComponent(session.id)}/prompt_async`, session.directory, {
      model: { providerID: PROVIDER_ID, modelID: session.model ?? this.settings.model },
      ...(session.agent === undefined ? {} : { agent: session.agent }),
      parts,
    });
    const id = await this.newUserMessage(session, before, api);
    const kitId = c.id === undefined ? id : String(c.id);
    this.state.kitIds.set(id, kitId);
    this.state.save();
    return { messageId: kitId, state: 'promoted', duplicate: false };
  }

  /** The user message a prompt created, which OpenCode writes before it answers or soon after. */
  private async newUserMessage(session: Session, before: Set<string>, api: ClassicApi): Promise<string> {
    const deadline = Date.now() + SILENT_STOP_MS;
    for (;;) {
      const fresh = (await api.messages(session.id, session.directory)).find(
        (m) => m.info.role === 'user' && !before.has(m.info.id) && !m.parts.some((p) => p.type === 'compaction'),
      );
      if (fresh) return fresh.info.id;
      if (Date.now() > deadline) throw new SilentStop('OpenCode accepted a prompt but wrote no user message for it');
      await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    }
  }

  private async idle(session: Session, api: ClassicApi) {
    let quietSince: number | undefined;
    for (;;) {
      const status = await api.status(session.id, session.directory);
      if (status === 'idle') {
        const messages = await api.messages(session.id, session.directory);
        if (answered(messages) || this.state.declinedDoomLoops.has(session.id)) return;
        quietSince ??= Date.now();
        if (Date.now() - quietSince > SILENT_STOP_MS)
          throw new SilentStop('the session is idle but its newest user message has no answer and no recorded error');
      } else {
        quietSince = undefined;
        const [asked] = await this.permissionRequests(session, api);
        if (asked)
          throw new ApiError(
            'busy',
            `the session waits for permission request ${asked.id} (${asked.tool}): nobody answered it`,
          );
      }
      await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    }
  }

  /**
   * The experimental control-plane route moves a session to another directory; OpenCode finds the
   * destination's project itself, and refuses a move to another project. Every later request
   * about the session names its new directory.
   */
  private async move(session: Session, location: string, api: ClassicApi) {
    await api.call('POST', '/experimental/control-plane/move-session', session.directory, {
      sessionID: session.id,
      destination: { directory: location },
    });
    session.directory = location;
    this.state.save();
  }

  private async interrupt(session: Session, api: ClassicApi) {
    await api.call('POST', `/session/${encodeURIComponent(session.id)}/abort`, session.directory, {});
    while ((await api.status(session.id, session.directory)) !== 'idle')
      await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }

  /** Waiting requests, each with the agent of the assistant message whose call asked. */
  private async permissionRequests(session: Session, api: ClassicApi) {
    const requests = await api.permissions(session.id, session.directory);
    const messages = requests.some((request) => request.tool) ? await api.messages(session.id, session.directory) : [];
    return requests.map((request) => ({
      id: request.id,
      // A doom-loop request names the repeated tool in its metadata.
      tool: request.permission === 'doom_loop' ? String(request.metadata?.tool ?? 'doom_loop') : request.permission,
      agent: messages.find((m) => m.info.id === request.tool?.messageID)?.info.agent ?? session.agent ?? 'build',
    }));
  }

  private async permissionAsked(session: Session, api: ClassicApi): Promise<void> {
    let quietSince: number | undefined;
    while ((await api.permissions(session.id, session.directory)).length === 0) {
      const running = (await api.status(session.id, session.directory)) !== 'idle';
      quietSince = running ? undefined : (quietSince ?? Date.now());
      if (quietSince !== undefined && Date.now() - quietSince > SILENT_STOP_MS)
        throw new ApiError('not-found', 'no permission request is waiting, and the session is idle');
      await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    }
  }

  private async replyToPermission(id: string, approve: boolean, api: ClassicApi) {
    for (const session of this.state.sessions.values()) {
      const request = (await api.permissions(session.id, session.directory)).find((r) => r.id === id);
      if (!request) continue;
      if (!approve && request.permission === 'doom_loop') {
        this.state.declinedDoomLoops.add(session.id);
        this.state.save();
      }
      await api.call('POST', `/permission/${encodeURIComponent(id)}/reply`, session.directory, {
        reply: approve ? 'once' : 'reject',
      });
      return;
    }
    throw new ApiError('not-found', `no waiting permission request ${id}`);
  }

  private async toolOutputFiles() {
    const directory = toolOutputDirectory(SERVER, this.settings.storeDir);
    const names = await readdir(directory).catch(() => [] as string[]);
    return { directory, files: names.sort().map((name) => join(directory, name)) };
  }
}

/** Whether the newest user message has an assistant message after it that finished or failed. */
function answered(messages: ClassicMessage[]): boolean {
  const last = messages.at(-1);
  return last === undefined || (last.info.role === 'assistant' && last.info.time.completed !== undefined);
}

/**
 * The classic configuration loader installs `@opencode-ai/plugin` from the npm registry into each
 * configuration directory whose `node_modules` is missing or whose lockfile does not list it
 * (`Npm.install`, 1.18.33). A manifest and lockfile that already list it, beside an empty
 * `node_modules`, leave nothing to install: the server makes no outside call for it.
 */
function pluginDependenciesInstalled(configDir: string): void {
  const dependencies = { '@opencode-ai/plugin': '*' };
  mkdirSync(join(configDir, 'node_modules'), { recursive: true });
  writeFileSync(join(configDir, 'package.json'), `${JSON.stringify({ dependencies })}\n`);
  writeFileSync(join(configDir, 'package-lock.json'), `${JSON.stringify({ packages: { '': { dependencies } } })}\n`);
}
