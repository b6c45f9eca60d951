import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { OpencodeApi, type DurableEvent } from './api.js';
import { EventStream } from './events-stream.js';
import { idNamespace, kitMessageId, opencodeMessageId, opencodeSessionId } from './ids.js';
import { historyPage, type MessagePage } from './history-page.js';
import { failures, history, inbox, kitEvents, pendingAdmissions } from './projection.js';
import {
  DEFAULT_MODEL_LIMIT,
  type OpencodeServer,
  PROVIDER_ID,
  PROVIDER_PACKAGES,
  runtimeVersion,
  type ServerRuntime,
  type ServerSettings,
  withAgentDefined,
  withSkillDefined,
} from '../server/server.js';
import { EmulatedAnswer, SilentStop, type StdioAdapter } from '../../../../harness/adapter/stdio-serve.mjs';
import { markProjectRoot } from '../../../../harness/adapter/project-root.mjs';
import { ServerHandle } from '../server/server-handle.js';
import {
  ApiError,
  type Command,
  type HelloConfig as RunnerHelloConfig,
  START_WITHIN_MS,
  runnerAdapter,
} from '../server/runner-adapter.js';
import { readEpoch, savedApprovalIds } from './store.js';
import { savedSettings, saveSettings } from './configured-settings.js';
import { loggedAt, loggedWarnings } from '../server/server-log.js';
import { openServerStore, scenarioOpenedAt, toolOutputDirectory } from '../server/server-store.js';

/**
 * A runtime whose V2 runner this adapter drives, as its adapter declares it: OpenCode, or a fork
 * serving the same routes. What the runtime says in its own words (the texts of the handshake) is
 * its own; the routes, the projection and what the kit is told of them are shared.
 */
export interface V2Runtime {
  server: ServerRuntime;
  /** The runtime's name in the handshake. */
  name: string;
  /** The handshake's texts, as the runtime was observed to say them. */
  texts: Record<string, string>;
  /** What the runtime has no interface for at all, of the commands the adapter answers unsupported. */
  absent?: string[];
}

/** The V2 runner also reads which process over the scenario's store it is: 0 first, then after each restart. */
interface HelloConfig extends RunnerHelloConfig {
  instance: number;
}

/** Polling interval for idleness: OpenCode has no idle notification on the V2 routes. */
const POLL_MS = 50;
/** An admitted, resumed prompt with the session not running for this long is a silent stop. */
const SILENT_STOP_MS = 15_000;
/** A drain that ended in a failed step, with the session not running for this long, is over. */
const FAILED_DRAIN_QUIET_MS = 1_000;
/** How often a running session is asked whether it waits for a permission nobody will give. */
const PERMISSION_CHECK_MS = 1_000;

const PART_IMAGE_NAME = 'image';
/**
 * What OpenCode 1.18.33's V2 compaction works with when the kit configures no budget: the models'
 * limits as the adapter writes them, the default `compaction.buffer` (20000), the newest 8000 tokens
 * of conversation kept verbatim (`compaction.keep.tokens`), and a summary request allowing at most
 * 4096 tokens of output, which must fit in the window with the conversation it folds.
 */
const LIMITS = {
  contextWindow: DEFAULT_MODEL_LIMIT.context,
  outputAllowance: DEFAULT_MODEL_LIMIT.output,
  compactionBuffer: 20_000,
  recentContextTokens: 8_000,
  summaryOutputTokens: 4_096,
};

/** The most messages OpenCode's message route returns at once (`SessionMessagesQuery.limit`, 1.18.33). */
const MESSAGE_PAGE_MAX = 200;

/** OpenCode keeps managed tool output files 7 days (`RETENTION` of its ToolOutputStore, 1.18.33). */
const TOOL_OUTPUT_RETENTION_DAYS = 7;

/**
 * Commands a runtime of OpenCode's line has no equivalent for, with the reason its README records,
 * in its own name (`title`).
 */
const unsupported = (title: string): Record<string, string> => ({
  'session.run': `${title} serves no route for its forced drain (V2Session.resume): the prompt route only admits and wakes, so a provider attempt without eligible input cannot be asked for`,
  'clock.set': `${title} reads the host clock; it has no virtual clock`,
  'retry.wait': `${title} retries on real time; it has no virtual clock to schedule retries on`,
  'prompt.submit': `${title} has a durable inbox; profile sol only`,
  'gate.wait': `${title} runs only its own tools: the kit expresses its gate through the bash tool`,
  'gate.open': `${title} runs only its own tools: the kit expresses its gate through the bash tool`,
  'context.contributor.register': `${title} has no plugin-defined context sources reachable from outside`,
  'context.contributor.remove': `${title} has no plugin-defined context sources reachable from outside`,
  'context.source.set': `${title} has no plugin-defined context sources reachable from outside`,
  'context.reconcile': `${title} exposes no context reconciliation without a turn`,
  'compaction.request': 'the V2 compaction operation answers "operation unavailable"',
  'fault.crash': 'no crash points inside a published binary: a crash is the SIGKILL of a restart',
  'fault.system-message-writes': 'no fault hooks inside a published binary',
  'fault.tool-output-writes': 'no fault hooks inside a published binary',
  'tool-output.held': 'no fault hooks inside a published binary',
  'pty.overlay.set': 'no host environment overlay reachable from outside',
  'pty.environment': 'no host environment overlay reachable from outside',
});

/** What the adapter computes itself because the runtime serves no route for it, in its own name. */
const emulated = (title: string): Record<string, string> => ({
  'prompt.admit.duplicate':
    '`duplicate` is true when the history already holds a session.next.prompt.admitted event with the same ID (the prompt route answers the stored admission either way)',
  'session.idle':
    'polls GET /api/session/active and the history until every prompt admitted with resume is promoted, and searches the server log for a failed drain that promoted nothing (POST /api/session/:id/wait answers "operation unavailable")',
  'session.wake.empty':
    'with no prompt pending, nothing is sent: no route wakes a session alone (with one pending, the adapter re-admits it exactly, with resume, and the prompt route wakes the session after the idempotent admission)',
  compactions: `a compaction ${title} started and never ended is reported failed once a later step, prompt or compaction follows it or the session stops running (it records no failure of its own)`,
});

export function createAdapter(runtime: V2Runtime): StdioAdapter {
  return runnerAdapter(
    runtime.server.title,
    (config, kept: ServerHandle | undefined) => OpencodeRuntime.open(runtime.server, config as HelloConfig, kept),
    () => ({
      runtime: { name: runtime.name, version: runtimeVersion(runtime.server), language: 'typescript' },
      profiles: ['core'],
      capabilities: ['restart', 'host-env', 'process-reuse', 'history-paging'],
      // bash settles with the command's output and a text part naming its exit status.
      shell: {
        tool: 'bash',
        commandField: 'command',
        workdirField: 'workdir',
        statusText: 'Command exited with code {status}.',
      },
      emulated: emulated(runtime.server.title),
      ...(runtime.absent ? { absent: runtime.absent } : {}),
      patch: { tool: 'apply_patch', patchField: 'patchText' },
      texts: { 'tool-output.retention-days': String(TOOL_OUTPUT_RETENTION_DAYS), ...runtime.texts },
      limits: LIMITS,
    }),
    unsupported(runtime.server.title),
  );
}

class OpencodeRuntime {
  private readonly subscriptions = new Map<string, EventStream>();
  /** Prompts admitted with resume, per session: idle only once each was promoted. */
  private readonly expected = new Map<string, Set<string>>();
  /** The session of every permission request the kit was shown. */
  private readonly permissionSessions = new Map<string, string>();
  /** Every prompt this process admitted or retried with resume, and when it last did (ms). */
  private readonly resumedAt = new Map<string, number>();
  /** Locations whose model catalog was seen holding the model, on the current server. */
  private readonly offered = new Set<string>();
  private readonly commands: Record<string, (c: Command, api: OpencodeApi) => Promise<unknown>>;
  /** Commands that only change what the server is started with: none needs a server running. */
  private readonly settingChanges: Record<string, (c: Command) => Promise<unknown>>;

  /**
   * The runtime of one hello. A scenario's first process serves it from the server store the
   * scenario before it used, taking over that scenario's server once a command needs one if it
   * serves these settings then; a restarted process starts its own server over the store the
   * scenario's store links to. Managed tool output starts empty for each scenario, and the log is
   * read from when the scenario's first process opened, restarts included.
   */
  static async open(
    runtime: ServerRuntime,
    config: HelloConfig,
    kept: ServerHandle | undefined,
  ): Promise<OpencodeRuntime> {
    if (!(config.provider.dialect in PROVIDER_PACKAGES))
      throw new ApiError('unsupported', `dialect ${config.provider.dialect} is not wired`);
    const store = await openServerStore(runtime, config, kept);
    const settings: ServerSettings = {
      runtime,
      storeDir: store,
      home: config.home,
      dialect: config.provider.dialect,
      baseUrl: config.provider.baseUrl,
      apiKey: config.provider.apiKey,
      model: config.provider.model,
      // OpenCode offers only the models its configuration names: every model the kit may select.
      ...(config.provider.models?.length ? { otherModels: config.provider.models } : {}),
      ...(config.timeZone ? { timeZone: config.timeZone } : {}),
      // A restarted process starts OpenCode with what the scenario configured before it.
      ...savedSettings(config.storeDir),
    };
    return new OpencodeRuntime(
      new ServerHandle(settings, false),
      kept,
      idNamespace(config.storeDir),
      scenarioOpenedAt(config.storeDir),
      config.storeDir,
    );
  }

  private constructor(
    private opencode: ServerHandle,
    /** The server the scenario before left, until a command needs one. */
    private left: ServerHandle | undefined,
    /** What this scenario's kit IDs are wrapped with in OpenCode's. */
    private readonly namespace: string,
    /** When the scenario's first process opened (ms): the log before it is another scenario's. */
    private readonly openedAt: number,
    /** The scenario's own store, where what it configured is kept for a restarted process. */
    private readonly scenarioStore: string,
  ) {
    this.settingChanges = {
      'tool-output.configure': async (c) =>
        this.reconfigure({ toolOutput: { maxLines: Number(c.maxLines), maxBytes: Number(c.maxBytes) } }),
      'compaction.configure': async (c) =>
        this.reconfigure({
          compaction: {
            contextWindow: Number(c.contextWindow),
            outputAllowance: Number(c.outputAllowance),
            buffer: Number(c.buffer),
            ...(c.modelWindows ? { modelWindows: c.modelWindows as Record<string, number> } : {}),
          },
        }),
      'agent.define': async (c) => this.reconfigure({ agents: withAgentDefined(this.settings.agents, c) }),
      'host.env.set': async (c) => {
        const name = runtimeVariable(this.settings.runtime, String(c.name));
        const { [name]: _, ...others } = this.settings.environment ?? {};
        await this.reconfigure({
          environment: c.value === null ? others : { ...others, [name]: String(c.value) },
        });
      },
      'skill.define': async (c) => this.reconfigure({ skills: withSkillDefined(this.settings.skills, c) }),
    };
    this.commands = {
      'session.create': (c, api) => this.createSession(c, api),
      'prompt.admit': (c, api) => this.admit(c, api),
      'session.wake': (c, api) => this.wake(this.sessionOf(c), api),
      'session.idle': (c, api) => this.idle(this.sessionOf(c), api),
      'session.interrupt': (c, api) => this.interrupt(this.sessionOf(c), api),
      'session.select': (c, api) => this.select(c, api),
      'session.move': (c, api) => this.move(c, api),
      epoch: async (c) => readEpoch(this.database, this.sessionOf(c)),
      history: async (c, api) => ({ messages: history(await api.history(this.sessionOf(c))) }),
      'history.page': async (c, api) =>
        this.historyPage(
          this.sessionOf(c),
          Number(c.limit),
          c.before === undefined ? undefined : String(c.before),
          api,
        ),
      inbox: async (c, api) => ({ rows: inbox(await api.history(this.sessionOf(c))) }),
      failures: async (c, api) => ({ failures: failures(await api.history(this.sessionOf(c))) }),
      events: async (c, api) => ({ events: kitEvents(await api.history(this.sessionOf(c), Number(c.after ?? 0))) }),
      compactions: async (c, api) => {
        const session = this.sessionOf(c);
        const events = await api.history(session);
        return { compactions: compactions(events, (await api.active()).has(session)) };
      },
      'events.subscribe': async (c, api) => this.subscribe(c, api),
      'events.take': async (c) => {
        const stream = this.subscriptions.get(String(c.subscription));
        if (!stream) throw new ApiError('not-found', `no subscription ${c.subscription}`);
        return { events: kitEvents(stream.take()) };
      },
      'permission.pending': async (c, api) => ({ requests: await this.permissionRequests(this.sessionOf(c), api) }),
      'permission.wait': async (c, api) => this.permissionAsked(this.sessionOf(c), api),
      'permission.reply': async (c, api) =>
        this.replyToPermission(String(c.id), Boolean(c.approve), c.always === true, api),
      'tool-output.files': async () => this.toolOutputFiles(),
      diagnostics: async () => ({ diagnostics: await this.diagnostics() }),
    };
  }

  async handle(command: Command): Promise<unknown> {
    const change = this.settingChanges[command.cmd];
    if (change) return change(command);
    const run = this.commands[command.cmd];
    if (!run) throw new ApiError('unsupported', `${this.settings.runtime.title} has no equivalent of ${command.cmd}`);
    return run(command, await this.api());
  }

  async stop(): Promise<void> {
    for (const stream of this.subscriptions.values()) stream.close();
    await this.opencode.stop();
    await this.left?.stop();
  }

  /**
   * Ends the scenario's runtime and leaves its server to the next: nothing of this scenario may run
   * on into that one, so every session still running is interrupted (only this scenario's can be:
   * the one before it ended the same way) and every approval it saved for a project is removed. A
   * runtime that never needed a server passes on the one it was left.
   */
  async close(): Promise<ServerHandle> {
    for (const stream of this.subscriptions.values()) stream.close();
    if (this.left) return this.left;
    if (this.opencode.processIds().length > 0) {
      const api = await this.api();
      for (const session of await api.active()) await this.interrupt(session, api);
      await this.forgetSavedApprovals(api);
    }
    return this.opencode;
  }

  private get settings(): ServerSettings {
    return this.opencode.settings;
  }

  /** The routes of the server, started or taken over first. */
  private async api(): Promise<OpencodeApi> {
    return new OpencodeApi((await this.started()).url, this.settings.runtime.directoryHeader);
  }

  /** The runtime's database in the server store, read-only for what no route serves. */
  private get database(): string {
    return join(this.settings.storeDir, this.settings.runtime.database);
  }

  private sessionOf(c: Command): string {
    return opencodeSessionId(this.namespace, String(c.sessionId));
  }

  stopNow(): void {
    this.opencode.stopNow();
    this.left?.stopNow();
  }

  /** The server, taking over the one the scenario before left when it serves this runtime's settings now. */
  private async started(): Promise<OpencodeServer> {
    const left = this.left;
    if (left) {
      this.left = undefined;
      if (await left.takeOver(this.settings)) this.opencode = left;
      else await left.stop();
    }
    return this.opencode.started();
  }

  /**
   * A setting of OpenCode's configuration or environment, kept in the scenario's store for a
   * restarted process too. A server that read its configuration again, or started again, has
   * offered no model yet: each location's catalog loads anew.
   */
  private reconfigure(change: Partial<ServerSettings>): Promise<void> {
    const reread = this.opencode.reconfigure(change, () => this.offered.clear());
    saveSettings(this.scenarioStore, this.settings);
    return reread;
  }

  /**
   * The server knows a location's project by its Git repository, named after its first commit
   * (`Project.resolve`: without a repository or a commit, the one project `global`), so the kit's
   * project root is made one before a session works there: what the server keeps per project
   * (saved approvals) is then kept for the kit's project.
   */
  private async createSession(c: Command, api: OpencodeApi) {
    markProjectRoot(c.projectRoot as string | undefined, { rootCommit: true });
    const kitId = c.id === undefined ? undefined : String(c.id);
    const id = kitId === undefined ? undefined : opencodeSessionId(this.namespace, kitId);
    let created = true;
    if (id !== undefined) {
      created = await api.call('GET', `/api/session/${encodeURIComponent(id)}`).then(
        () => false,
        (error: unknown) => {
          if (error instanceof ApiError && error.code === 'not-found') return true;
          throw error;
        },
      );
    }
    const answer = await api.call<{ data: { id: string } }>('POST', '/api/session', {
      ...(id === undefined ? {} : { id }),
      location: { directory: String(c.location) },
      model: { providerID: PROVIDER_ID, id: this.settings.model },
    });
    await this.modelOffered(answer.data.id, api);
    return { sessionId: kitId ?? answer.data.id, created };
  }

  private async admit(c: Command, api: OpencodeApi) {
    const session = this.sessionOf(c);
    if (c.resume !== false) await this.modelOffered(session, api);
    const parts = (
      c.prompt as { parts: ({ type: 'text'; text: string } | { type: 'image'; mediaType: string; data: string })[] }
    ).parts;
    const text = parts.flatMap((part) => (part.type === 'text' ? [part.text] : [])).join('\n');
    const files = parts.flatMap((part, index) =>
      part.type === 'image'
        ? [{ uri: `data:${part.mediaType};base64,${part.data}`, name: `${PART_IMAGE_NAME}-${index + 1}` }]
        : [],
    );
    const id = c.id === undefined ? undefined : opencodeMessageId(this.namespace, String(c.id));
    const before = id === undefined ? [] : await api.history(session);
    const duplicate = before.some(
      (event) => event.type === 'session.next.prompt.admitted' && event.data.messageID === id,
    );
    const sentAt = Date.now();
    const answer = await api.call<{ data: { id: string; promotedSeq?: number } }>(
      'POST',
      `/api/session/${encodeURIComponent(session)}/prompt`,
      {
        ...(id === undefined ? {} : { id }),
        prompt: { text, ...(files.length > 0 ? { files } : {}) },
        ...(c.delivery === undefined ? {} : { delivery: c.delivery }),
        ...(c.resume === undefined ? {} : { resume: c.resume }),
      },
    );
    if (c.resume !== false) {
      this.expecting(session).add(answer.data.id);
      this.resumedAt.set(answer.data.id, sentAt);
    }
    return {
      messageId: kitMessageId(answer.data.id),
      state: answer.data.promotedSeq === undefined || answer.data.promotedSeq === null ? 'pending' : 'promoted',
      duplicate,
    };
  }

  /** No route runs a session: an exact retry of a pending admission with resume wakes it. */
  private async wake(session: string, api: OpencodeApi): Promise<EmulatedAnswer> {
    const [oldest] = pendingAdmissions(await api.history(session));
    // Only a wake with nothing pending is the adapter's own; with a prompt pending, OpenCode wakes.
    if (!oldest) return new EmulatedAnswer(undefined, ['session.wake.empty']);
    await this.modelOffered(session, api);
    const sentAt = Date.now();
    await api.call('POST', `/api/session/${encodeURIComponent(session)}/prompt`, {
      id: oldest.id,
      prompt: oldest.prompt,
      delivery: oldest.delivery,
      resume: true,
    });
    this.expecting(session).add(oldest.id);
    this.resumedAt.set(oldest.id, sentAt);
    return new EmulatedAnswer(undefined, []);
  }

  /** Before anything can start a drain: the session's location must offer the model. */
  private async modelOffered(session: string, api: OpencodeApi): Promise<void> {
    const info = await api.call<{ data: { location: { directory: string } } }>(
      'GET',
      `/api/session/${encodeURIComponent(session)}`,
    );
    const directory = info.data.location.directory;
    if (this.offered.has(directory)) return;
    await api.modelOffered(directory, PROVIDER_ID, this.settings.model, START_WITHIN_MS);
    this.offered.add(directory);
  }

  private async idle(session: string, api: OpencodeApi) {
    let quietSince: number | undefined;
    let permissionsCheckedAt = Date.now();
    for (;;) {
      const active = await api.active();
      if (active.has(session)) {
        quietSince = undefined;
        // A session held on a permission request never settles by itself: say so at once rather
        // than let the kit wait out its command timeout.
        if (Date.now() - permissionsCheckedAt > PERMISSION_CHECK_MS) {
          permissionsCheckedAt = Date.now();
          const [asked] = await this.permissionRequests(session, api);
          if (asked)
            throw new ApiError(
              'busy',
              `the session waits for permission request ${asked.id} (${asked.tool}): nobody answered it`,
            );
        }
      } else {
        const events = await api.history(session);
        const waiting = this.unpromoted(session, events);
        // Only a prompt this process sent on can have stopped silently here: one promoted before a
        // restart and left unanswered is OpenCode's recovery behaviour, for the scenario to judge.
        const last = promptedWithoutStep(events);
        const unanswered = last !== undefined && this.resumedAt.has(last) ? last : undefined;
        if (waiting.length === 0 && unanswered === undefined) return;
        quietSince ??= Date.now();
        // A failed step ends the drain and may leave queued prompts behind: that is idle. So does a
        // drain that failed before promoting the prompts it was woken for.
        if (unanswered === undefined && Date.now() - quietSince > FAILED_DRAIN_QUIET_MS) {
          if (drainFailed(events)) return;
          const sentAt = Math.max(...waiting.map((id) => this.resumedAt.get(id) ?? 0));
          if (await this.drainFailedSince(session, sentAt)) return;
        }
        if (Date.now() - quietSince > SILENT_STOP_MS) {
          if (unanswered === undefined && events.some((event) => event.type === 'session.next.step.failed')) return;
          throw new SilentStop(
            unanswered === undefined
              ? `${this.settings.runtime.title} admitted ${waiting.join(', ')} with resume but neither promoted it nor ran the session for ${SILENT_STOP_MS} ms, and recorded no error`
              : `${this.settings.runtime.title} promoted ${unanswered} but stopped without a provider step or a recorded error (its log says why)`,
          );
        }
      }
      await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    }
  }

  private unpromoted(session: string, events: DurableEvent[]): string[] {
    const expected = this.expecting(session);
    const promoted = new Set(
      events.filter((event) => event.type === 'session.next.prompted').map((event) => String(event.data.messageID)),
    );
    for (const id of [...expected]) if (promoted.has(id)) expected.delete(id);
    return [...expected];
  }

  private async interrupt(session: string, api: OpencodeApi) {
    await api.call('POST', `/api/session/${encodeURIComponent(session)}/interrupt`, {});
    // Interrupted drains leave their pending prompts pending; nothing more is scheduled.
    this.expecting(session).clear();
    while ((await api.active()).has(session)) await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    // A prompt interrupted before its first step stopped because it was told to, not silently.
    const stopped = promptedWithoutStep(await api.history(session));
    if (stopped !== undefined) this.resumedAt.delete(stopped);
  }

  private async select(c: Command, api: OpencodeApi) {
    const session = this.sessionOf(c);
    if ('agent' in c) {
      await api.call('POST', `/api/session/${encodeURIComponent(session)}/agent`, { agent: c.agent ?? 'build' });
    }
    if ('model' in c) {
      const model = c.model === null || c.model === undefined ? this.settings.model : String(c.model);
      if (model !== this.settings.model && !this.settings.otherModels?.includes(model)) {
        // A model the handshake did not name: written, and the server restarted to read it.
        await this.reconfigure({ otherModels: [...(this.settings.otherModels ?? []), model] });
        api = await this.api();
        await this.modelOffered(session, api);
      }
      await api.call('POST', `/api/session/${encodeURIComponent(session)}/model`, {
        model: { providerID: PROVIDER_ID, id: model },
      });
    }
  }

  /** One page of the history, through OpenCode's message route (see `historyPage`). */
  private async historyPage(session: string, limit: number, before: string | undefined, api: OpencodeApi) {
    const path = `/api/session/${encodeURIComponent(session)}/message`;
    const toOpencode = (kitId: string) => (kitId.startsWith('msg_') ? kitId : opencodeMessageId(this.namespace, kitId));
    const messages = await historyPage(
      history(await api.history(session)),
      (message) =>
        message.role === 'tool'
          ? message.assistantMessageId
          : message.role === 'assistant'
            ? message.id
            : toOpencode(message.id),
      toOpencode,
      limit,
      before,
      // The route pages at most 200 messages at a time; more are read page by page.
      (cursor) =>
        api.call<MessagePage>(
          'GET',
          `${path}?limit=${Math.min(limit, MESSAGE_PAGE_MAX)}&${cursor === undefined ? 'order=desc' : `cursor=${cursor}`}`,
        ),
    );
    return { messages };
  }

  /**
   * Through OpenCode's experimental control plane: the session's location becomes the destination
   * and the durable event `session.next.moved` is recorded; the workspace's files stay where they
   * are (`moveChanges: false`). OpenCode refuses a destination of another project (400).
   */
  private async move(c: Command, api: OpencodeApi) {
    markProjectRoot(c.projectRoot as string | undefined, { rootCommit: true });
    await api
      .call('POST', '/experimental/control-plane/move-session', {
        sessionID: this.sessionOf(c),
        destination: { directory: String(c.location) },
        moveChanges: false,
      })
      .catch((error: unknown) => {
        // The route answers every refusal 400 (MoveSessionError), an unknown session included.
        if (error instanceof ApiError && error.message.includes('Session not found'))
          throw new ApiError('not-found', error.message);
        throw error;
      });
    return {};
  }

  private async subscribe(c: Command, api: OpencodeApi) {
    const session = this.sessionOf(c);
    await api.call('GET', `/api/session/${encodeURIComponent(session)}`);
    const id = `sub_${this.subscriptions.size + 1}`;
    const server = await this.started();
    this.subscriptions.set(
      id,
      new EventStream(`${server.url}/api/session/${encodeURIComponent(session)}/event?after=${Number(c.after ?? 0)}`),
    );
    return { subscription: id };
  }

  /** Answers once a request waits; an idle session with nothing scheduled will never ask. */
  private async permissionAsked(session: string, api: OpencodeApi): Promise<void> {
    let quietSince: number | undefined;
    while ((await this.permissionRequests(session, api)).length === 0) {
      const running =
        (await api.active()).has(session) || this.unpromoted(session, await api.history(session)).length > 0;
      quietSince = running ? undefined : (quietSince ?? Date.now());
      if (quietSince !== undefined && Date.now() - quietSince > SILENT_STOP_MS) {
        throw new ApiError(
          'not-found',
          'no permission request is waiting, and the session is idle with nothing scheduled',
        );
      }
      await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    }
  }

  /** Waiting permission requests, each with the agent of the assistant message whose call asked. */
  private async permissionRequests(session: string, api: OpencodeApi) {
    const path = `/api/session/${encodeURIComponent(session)}`;
    const { data } = await api.call<{ data: { id: string; action: string; source?: { messageID: string } }[] }>(
      'GET',
      `${path}/permission`,
    );
    return Promise.all(
      data.map(async (request) => {
        const message = request.source
          ? await api.call<{ data: { agent?: string } }>(
              'GET',
              `${path}/message/${encodeURIComponent(request.source.messageID)}`,
            )
          : undefined;
        this.permissionSessions.set(request.id, session);
        return { id: request.id, tool: request.action, agent: message?.data.agent ?? 'build' };
      }),
    );
  }

  /**
   * The kit names a request by its ID only; OpenCode's reply route needs the session too, known from
   * the session's own list where the kit saw the request (the global list is scoped to a location).
   */
  private async replyToPermission(id: string, approve: boolean, always: boolean, api: OpencodeApi) {
    const session = this.permissionSessions.get(id);
    if (!session) throw new ApiError('not-found', `no waiting permission request ${id}`);
    // `always` saves the request's `save` patterns (bash: the command itself) for the location's
    // project in the store (PermissionV2.reply, PermissionSaved.add), where every later request of
    // the project finds them, after a restart too.
    await api.call('POST', `/api/session/${encodeURIComponent(session)}/permission/${encodeURIComponent(id)}/reply`, {
      reply: approve ? (always ? 'always' : 'once') : 'reject',
    });
  }

  /**
   * The approvals this scenario saved live in the server's store, which the next scenario shares:
   * each is removed through OpenCode's own route, listed from the store (the list route answers
   * for one project, and every location outside a Git repository is the project `global`).
   */
  private async forgetSavedApprovals(api: OpencodeApi): Promise<void> {
    for (const id of savedApprovalIds(this.database))
      await api.call('DELETE', `/api/permission/saved/${encodeURIComponent(id)}`);
  }

  private async toolOutputFiles() {
    const directory = toolOutputDirectory(this.settings.runtime, this.settings.storeDir);
    const names = await readdir(directory).catch(() => [] as string[]);
    return { directory, files: names.sort().map((name) => join(directory, name)) };
  }

  /** OpenCode's own log since the scenario opened: its warnings and errors are what an operator reads. */
  private diagnostics(): Promise<string[]> {
    return loggedWarnings(this.settings.runtime, this.settings.storeDir, this.openedAt);
  }

  /**
   * Whether OpenCode logged a drain of the session failing at or after `since` (ms): a drain can end
   * before promoting anything, with nothing durable ("Failed to drain Session" with
   * `SystemContext.InitializationBlocked` when an instruction file cannot be read, rule EPO-02).
   */
  private async drainFailedSince(session: string, since: number): Promise<boolean> {
    return (await this.diagnostics()).some(
      (line) =>
        line.includes('message="Failed to drain Session"') &&
        line.includes(`sessionID=${session}`) &&
        loggedAt(line) >= since,
    );
  }

  private expecting(session: string): Set<string> {
    let set = this.expected.get(session);
    if (!set) {
      set = new Set();
      this.expected.set(session, set);
    }
    return set;
  }
}

/** Whether the session's last provider step failed, with no prompt promoted since. */
function drainFailed(events: DurableEvent[]): boolean {
  const last = events.findLast(
    (event) => event.type.startsWith('session.next.step.') || event.type === 'session.next.prompted',
  );
  return last?.type === 'session.next.step.failed';
}

/** The last promoted prompt, when nothing (no step, no failure) followed it. */
function promptedWithoutStep(events: DurableEvent[]): string | undefined {
  const last = events.findLastIndex((event) => event.type === 'session.next.prompted');
  if (last < 0) return undefined;
  const followed = events.slice(last + 1).some((event) => event.type.startsWith('session.next.step.'));
  return followed ? undefined : String(events[last]!.data.messageID);
}

/**
 * OpenCode 1.18.33 records a compaction's start and its end, and nothing when the summary request
 * fails or is interrupted: the runner goes on (or stops) without it. A start never ended is therefore
 * reported failed once the runner moved past it (a later step, prompt or compaction) or the session
 * is no longer running.
 */
function compactions(events: DurableEvent[], running: boolean) {
  const list: { status: 'started' | 'completed' | 'failed'; summary?: string }[] = [];
  const abandon = () => {
    const open = list.findLast((entry) => entry.status === 'started');
    if (open) open.status = 'failed';
  };
  for (const event of events) {
    if (
      event.type === 'session.next.compaction.started' ||
      event.type === 'session.next.step.started' ||
      event.type === 'session.next.prompted'
    )
      abandon();
    if (event.type === 'session.next.compaction.started') list.push({ status: 'started' });
    if (event.type === 'session.next.compaction.ended') {
      const open = list.findLast((entry) => entry.status === 'started');
      const summary = typeof event.data.text === 'string' ? event.data.text : '';
      if (open) Object.assign(open, { status: 'completed', summary });
      else list.push({ status: 'completed', summary });
    }
  }
  if (!running) abandon();
  return list;
}

/**
 * The variable a host variable the kit names is to the runtime: a fork reads OpenCode's switches
 * (`OPENCODE_DISABLE_PROJECT_CONFIG`) under its own prefix (`KILO_DISABLE_PROJECT_CONFIG`).
 */
function runtimeVariable(runtime: ServerRuntime, name: string): string {
  return name.startsWith('OPENCODE_') ? `${runtime.variablePrefix}${name.slice('OPENCODE_'.length)}` : name;
}
