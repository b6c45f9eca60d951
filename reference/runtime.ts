import { openDatabase, type Db } from './store/database.js';
import { EventLog } from './store/event-log.js';
import { HistoryStore } from './history/history-store.js';
import { SessionStore, type Session } from './session/session-store.js';
import { Inbox, type InboxRow } from './inbox/inbox.js';
import { ToolRegistry } from './tools/tool-registry.js';
import type { Tool } from './tools/tool.js';
import { LiveFeed } from './events/live-feed.js';
import { SessionRunCoordinator } from './runner/coordinator.js';
import { drainSession, type DrainDeps } from './runner/drain.js';
import { randomIds, type IdSource } from './ids.js';
import { systemClock, type Clock } from './clock.js';
import { RuntimeError } from './errors.js';
import { AgentCatalog } from './agents/agent-catalog.js';
import { PermissionBoard } from './agents/permission-board.js';
import { EpochStore, type ContextEpoch } from './context/epoch-store.js';
import { LocationContexts } from './context/location-contexts.js';
import type { Delivery, Prompt, StoredEvent } from './events/session-event.js';
import type { SessionMessage } from './history/message.js';
import type { ProviderConfig } from './provider/provider-turn-stream.js';

export interface RuntimeOptions {
  /** The SQLite file holding all durable state; reopening it recovers every session. */
  databaseFile: string;
  provider: ProviderConfig;
  tools: Tool[];
  /** The user's global configuration directory, where the global AGENTS.md lives. */
  globalConfigDir: string;
  /** The host environment (TZ, OPENCODE_DISABLE_PROJECT_CONFIG, ...); process.env by default. */
  hostEnv?: () => Record<string, string | undefined>;
  clock?: Clock;
  ids?: IdSource;
  /** Where operator diagnostics go (failed drains, storage problems). */
  diagnostics?: (message: string) => void;
}

export interface PromptInput {
  sessionId: string;
  id?: string;
  prompt: Prompt;
  delivery?: Delivery;
  resume?: boolean;
}

export interface PromptReceipt {
  messageId: string;
  sessionId: string;
  delivery: Delivery;
  state: 'pending' | 'promoted';
  duplicate: boolean;
}

const DELIVERIES: readonly string[] = ['steer', 'queue'];

/** The session runtime: durable sessions, their inbox, and the runner that drains them. */
export class SessionRuntime {
  readonly live = new LiveFeed();
  readonly agents = new AgentCatalog();
  readonly permissions = new PermissionBoard();
  readonly contexts: LocationContexts;
  private readonly db: Db;
  private readonly log: EventLog;
  private readonly sessions: SessionStore;
  private readonly inbox: Inbox;
  private readonly history: HistoryStore;
  private readonly epochs: EpochStore;
  private readonly coordinator: SessionRunCoordinator;
  private readonly ids: IdSource;

  constructor(options: RuntimeOptions) {
    const clock = options.clock ?? systemClock;
    this.ids = options.ids ?? randomIds;
    this.db = openDatabase(options.databaseFile);
    this.log = new EventLog(this.db, clock);
    this.sessions = new SessionStore(this.db, this.log, clock);
    this.inbox = new Inbox(this.db, this.log);
    this.history = new HistoryStore(this.db);
    this.epochs = new EpochStore(this.db);
    this.contexts = new LocationContexts({
      clock,
      hostEnv: options.hostEnv ?? (() => process.env),
      globalConfigDir: options.globalConfigDir,
      agents: this.agents,
    });
    const diagnostics = options.diagnostics ?? ((message) => process.stderr.write(`${message}\n`));
    const deps: DrainDeps = {
      log: this.log,
      history: this.history,
      sessions: this.sessions,
      inbox: this.inbox,
      tools: new ToolRegistry(options.tools),
      ids: this.ids,
      provider: options.provider,
      live: this.live,
      agents: this.agents,
      permissions: this.permissions,
      epochs: this.epochs,
      contextSources: (session) =>
        this.contexts.sources(session.location, session.projectRoot, this.agents.agent(session.agent)),
    };
    this.coordinator = new SessionRunCoordinator(
      (sessionId, mode, signal) => drainSession(deps, sessionId, mode, signal),
      (sessionId, error) => diagnostics(`drain of ${sessionId} failed: ${error instanceof Error ? error.stack : error}`),
    );
  }

  /** The project root bounds instruction discovery; it is the location itself unless given. */
  createSession(input: { id?: string; location: string; projectRoot?: string }): { session: Session; created: boolean } {
    return this.sessions.create(input.id ?? this.ids.next('ses'), input.location, input.projectRoot ?? input.location);
  }

  /** Admits a prompt to the durable inbox; unless `resume` is false, wakes the session. */
  prompt(input: PromptInput): PromptReceipt {
    const delivery = input.delivery ?? 'steer';
    if (!DELIVERIES.includes(delivery)) {
      throw new RuntimeError('invalid-input', `unknown delivery mode "${delivery}" (expected steer or queue)`);
    }
    if (!Array.isArray(input.prompt?.parts) || input.prompt.parts.length === 0) {
      throw new RuntimeError('invalid-input', 'a prompt needs at least one part');
    }
    this.sessions.get(input.sessionId);
    const { row, duplicate } = this.inbox.admit({
      messageId: input.id ?? this.ids.next('msg'),
      sessionId: input.sessionId,
      delivery,
      prompt: input.prompt,
    });
    if (input.resume !== false) this.coordinator.wake(input.sessionId);
    return {
      messageId: row.messageId,
      sessionId: row.sessionId,
      delivery: row.delivery,
      state: row.promotedSeq === null ? 'pending' : 'promoted',
      duplicate,
    };
  }

  run(sessionId: string): Promise<void> {
    this.sessions.get(sessionId);
    return this.coordinator.run(sessionId);
  }

  wake(sessionId: string): void {
    this.sessions.get(sessionId);
    this.coordinator.wake(sessionId);
  }

  /** Idle and unknown sessions are a no-op. */
  interrupt(sessionId: string): Promise<void> {
    return this.coordinator.interrupt(sessionId);
  }

  /** Resolves once the session has no active or scheduled drain in this process. */
  idle(sessionId: string): Promise<void> {
    return this.coordinator.idle(sessionId);
  }

  move(sessionId: string, location: string, projectRoot?: string): void {
    this.sessions.move(sessionId, location, projectRoot ?? location);
  }

  /** Agent and model switches apply from the next provider turn. */
  select(sessionId: string, selection: { agent?: string | null; model?: string | null }): void {
    this.sessions.select(sessionId, selection);
  }

  epoch(sessionId: string): ContextEpoch | undefined {
    this.sessions.get(sessionId);
    return this.epochs.find(sessionId);
  }

  messages(sessionId: string): SessionMessage[] {
    this.sessions.get(sessionId);
    return this.history.messages(sessionId);
  }

  inboxRows(sessionId: string): InboxRow[] {
    this.sessions.get(sessionId);
    return this.inbox.rows(sessionId);
  }

  events(sessionId: string, after = 0): StoredEvent[] {
    this.sessions.get(sessionId);
    return this.log.after(sessionId, after);
  }

  /**
   * Replays durable events after `after`, then tails new ones. The commit listener is registered
   * before the replay read, so a commit in between is never missed; the cursor drops duplicates.
   */
  tail(sessionId: string, after: number, onEvent: (event: StoredEvent) => void): () => void {
    this.sessions.get(sessionId);
    let cursor = after;
    const deliver = () => {
      for (const event of this.log.after(sessionId, cursor)) {
        cursor = event.seq;
        onEvent(event);
      }
    };
    const stop = this.log.onCommit((committed) => committed === sessionId && deliver());
    deliver();
    return stop;
  }

  /** Stops at once, as a process exit would: the store closes first, so no later write lands. */
  terminate(): void {
    this.db.close();
    this.coordinator.abandonAll();
  }
}
