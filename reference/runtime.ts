import { dirname, join } from 'node:path';
import { openDatabase, type Db } from './store/database.js';
import { EventLog } from './store/event-log.js';
import { HistoryStore } from './history/history-store.js';
import { SessionStore, type Session } from './session/session-store.js';
import { Inbox, type InboxRow } from './inbox/inbox.js';
import { ToolRegistry } from './tools/tool-registry.js';
import type { Tool } from './tools/tool.js';
import { LiveFeed } from './events/live-feed.js';
import { SessionRunCoordinator } from './runner/coordinator.js';
import { ProviderRetries } from './runner/provider-retries.js';
import { drainSession, type DrainDeps } from './runner/drain.js';
import { randomIds, type IdSource } from './ids.js';
import { systemClock, type Clock } from './clock.js';
import { RuntimeError } from './errors.js';
import { AgentCatalog } from './agents/agent-catalog.js';
import { PermissionBoard } from './agents/permission-board.js';
import { EpochStore, type ContextEpoch } from './context/epoch-store.js';
import { LocationContexts } from './context/location-contexts.js';
import type { BeforeInstructionRead } from './context/sources/instructions.js';
import { NestedInstructions } from './context/nested-instructions.js';
import { DEFAULT_BUDGET, type CompactionBudget } from './compaction/compaction-budget.js';
import { compactionsOf, type Compaction } from './compaction/compactions.js';
import { Profile } from './profile.js';
import { reconcile, replace, type Reconciliation } from './context/system-context.js';
import type { Delivery, Prompt, StoredEvent } from './events/session-event.js';
import type { SessionMessage } from './history/message.js';
import type { ProviderConfig } from './provider/provider-turn-stream.js';
import { SavedApprovals } from './agents/saved-approvals.js';
import { DEFAULT_RETENTION_MS, ManagedToolOutputFiles } from './tools/managed-tool-output-files.js';
import { ModelToolOutputBounding } from './tools/model-tool-output.js';
import { DEFAULT_TOOL_OUTPUT_LIMIT, type ToolOutputLimit } from './tools/bounded-preview.js';
import { readTool } from './tools/read-tool.js';
import { applyPatchTool } from './tools/apply-patch-tool.js';
import { bashTool } from './tools/bash-tool.js';
import { skillTool } from './tools/skill-tool.js';

export interface RuntimeOptions {
  /** The SQLite file holding all durable state; reopening it recovers every session. */
  databaseFile: string;
  provider: ProviderConfig;
  tools: Tool[];
  /** The user's global configuration directory, where the global AGENTS.md lives. */
  globalConfigDir: string;
  /** The host environment (TZ, OPENCODE_DISABLE_PROJECT_CONFIG, ...); process.env by default. */
  hostEnv?: () => Record<string, string | undefined>;
  /** What the host does just before each read of an instruction file found there (a fault); nothing by default. */
  beforeInstructionRead?: BeforeInstructionRead;
  /** When automatic compaction starts; the defaults fit a 200k-token model. */
  budget?: CompactionBudget;
  /** The rule profile to follow; the core design alone by default. */
  profile?: Profile;
  clock?: Clock;
  ids?: IdSource;
  /** Where operator diagnostics go (failed drains, storage problems). */
  diagnostics?: (message: string) => void;
  /** The Model Tool Output limit and the Managed Tool Output Files; defaults beside the database. */
  toolOutput?: {
    directory?: string;
    limit?: ToolOutputLimit;
    retentionMs?: number;
    onFileWritten?: (path: string) => Promise<void>;
  };
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
/** The delivery of a prompt that names none: a choice the seeds leave open, declared to the kit. */
export const DEFAULT_DELIVERY = 'steer';

/** The session runtime: durable sessions, their inbox, and the runner that drains them. */
export class SessionRuntime {
  readonly live = new LiveFeed();
  readonly agents = new AgentCatalog();
  readonly permissions = new PermissionBoard();
  /** The provider retries scheduled in this process (profile `sol`). */
  readonly retries: ProviderRetries;
  readonly contexts: LocationContexts;
  private readonly db: Db;
  private readonly log: EventLog;
  private readonly sessions: SessionStore;
  private readonly inbox: Inbox;
  private readonly history: HistoryStore;
  private readonly epochs: EpochStore;
  private readonly nested: NestedInstructions;
  private readonly savedApprovals: SavedApprovals;
  private readonly coordinator: SessionRunCoordinator;
  private readonly tools: ToolRegistry;
  private readonly ids: IdSource;
  private budget: CompactionBudget;
  private readonly profile: Profile;
  private readonly bounding: ModelToolOutputBounding;
  private readonly toolOutputFiles: ManagedToolOutputFiles;

  constructor(options: RuntimeOptions) {
    const clock = options.clock ?? systemClock;
    this.retries = new ProviderRetries(clock);
    this.ids = options.ids ?? randomIds;
    this.budget = options.budget ?? DEFAULT_BUDGET;
    this.profile = options.profile ?? Profile.core;
    this.db = openDatabase(options.databaseFile);
    this.log = new EventLog(this.db, clock);
    this.sessions = new SessionStore(this.db, this.log, clock);
    this.inbox = new Inbox(this.db, this.log);
    this.history = new HistoryStore(this.db);
    this.epochs = new EpochStore(this.db);
    this.nested = new NestedInstructions(this.db, this.log);
    this.savedApprovals = new SavedApprovals(this.db, this.log);
    this.contexts = new LocationContexts({
      design: this.profile,
      clock,
      hostEnv: options.hostEnv ?? (() => process.env),
      globalConfigDir: options.globalConfigDir,
      agents: this.agents,
      beforeInstructionRead: options.beforeInstructionRead,
    });
    const diagnostics = options.diagnostics ?? ((message) => process.stderr.write(`${message}\n`));
    this.toolOutputFiles = new ManagedToolOutputFiles({
      directory: options.toolOutput?.directory ?? join(dirname(options.databaseFile), 'tool-output'),
      clock,
      ids: this.ids,
      retentionMs: options.toolOutput?.retentionMs ?? DEFAULT_RETENTION_MS,
      onFileWritten: options.toolOutput?.onFileWritten,
    });
    this.bounding = new ModelToolOutputBounding(
      this.toolOutputFiles,
      options.toolOutput?.limit ?? DEFAULT_TOOL_OUTPUT_LIMIT,
      diagnostics,
    );
    this.tools = new ToolRegistry(
      [
        readTool((path) => this.toolOutputFiles.manages(path)),
        applyPatchTool,
        skillTool(this.agents),
        bashTool,
        ...options.tools,
      ],
      this.bounding,
    );
    const deps: DrainDeps = {
      log: this.log,
      history: this.history,
      sessions: this.sessions,
      inbox: this.inbox,
      tools: this.tools,
      ids: this.ids,
      provider: options.provider,
      live: this.live,
      agents: this.agents,
      permissions: this.permissions,
      savedApprovals: this.savedApprovals,
      epochs: this.epochs,
      budget: () => this.budget,
      prunedMessage: () => this.budget.prunedMessage,
      ...(this.profile.retriesProvider() ? { retries: this.retries } : {}),
      profile: this.profile,
      contextSources: (session) => this.contextSources(session),
      // Nested instruction discovery belongs to the checkpoint design; the core design defers it.
      ...(this.profile.discoversNestedInstructions()
        ? { fileRead: (id: string, location: string, path: string) => this.nested.discover(id, location, path) }
        : {}),
    };
    this.coordinator = new SessionRunCoordinator(
      (sessionId, mode, signal) => drainSession(deps, sessionId, mode, signal),
      (sessionId, error) =>
        diagnostics(`drain of ${sessionId} failed: ${error instanceof Error ? error.stack : error}`),
    );
  }

  /** A host's tools for one location, under a contribution key: advertised from the next provider turn. */
  contributeTools(location: string, key: string, tools: Tool[]): void {
    this.tools.contribute(location, key, tools);
  }

  /** Its tools are gone from the location's next provider turn; false when there is no such contribution. */
  closeToolContribution(location: string, key: string): boolean {
    return this.tools.close(location, key);
  }

  configureToolOutput(limit: ToolOutputLimit): void {
    this.bounding.configure(limit);
  }

  /** Removes Managed Tool Output Files past their retention; a host runs it periodically. */
  sweepToolOutput(): Promise<void> {
    return this.toolOutputFiles.sweep();
  }

  get toolOutputDirectory(): string {
    return this.toolOutputFiles.directory;
  }

  /** The project root bounds instruction discovery; it is the location itself unless given. */
  createSession(input: { id?: string; location: string; projectRoot?: string }): {
    session: Session;
    created: boolean;
  } {
    return this.sessions.create(input.id ?? this.ids.next('ses'), input.location, input.projectRoot ?? input.location);
  }

  /** Admits a prompt to the durable inbox; unless `resume` is false, wakes the session. */
  prompt(input: PromptInput): PromptReceipt {
    const delivery = input.delivery ?? DEFAULT_DELIVERY;
    if (!DELIVERIES.includes(delivery)) {
      throw new RuntimeError('invalid-input', `unknown delivery mode "${delivery}" (expected steer or queue)`);
    }
    if (!Array.isArray(input.prompt?.parts) || input.prompt.parts.length === 0) {
      throw new RuntimeError('invalid-input', 'a prompt needs at least one part');
    }
    const { metadata } = input.prompt;
    if (metadata !== undefined && (typeof metadata !== 'object' || metadata === null || Array.isArray(metadata))) {
      throw new RuntimeError('invalid-input', "a prompt's metadata is a JSON object");
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

  /**
   * The prompt entry of a runtime without an inbox (profile `sol`): a session that is processing
   * refuses the prompt and nothing changes; an idle one takes it and runs.
   */
  promptWhenIdle(input: Omit<PromptInput, 'delivery' | 'resume'>): PromptReceipt {
    this.sessions.get(input.sessionId);
    if (this.coordinator.busy(input.sessionId)) throw new RuntimeError('busy', `session ${input.sessionId} is busy`);
    return this.prompt(input);
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

  /**
   * Answers a waiting tool call; an approval saved for the project becomes durable with the answer,
   * so the same call runs without asking in every session of the project. False when none waits.
   */
  replyToPermission(id: string, approve: boolean, saveForProject: boolean): boolean {
    const request = this.permissions.reply(id, approve);
    if (!request) return false;
    if (approve && saveForProject) this.savedApprovals.save(request);
    return true;
  }

  /** Agent and model switches apply from the next provider turn. */
  select(sessionId: string, selection: { agent?: string | null; model?: string | null }): void {
    // The checkpoint design cannot keep a provider cache across models: the epoch ends with the switch.
    this.sessions.select(sessionId, selection, this.profile.endsEpochOnSwitch() && selection.model !== undefined);
  }

  configureCompaction(budget: CompactionBudget): void {
    this.budget = budget;
  }

  /** The user asks for a compaction: it happens before the session's next provider turn. */
  requestCompaction(sessionId: string): void {
    this.sessions.requestCompaction(sessionId);
  }

  compactions(sessionId: string): Compaction[] {
    return compactionsOf(this.events(sessionId));
  }

  /** What reconciling the context now would yield, without admitting anything. */
  async previewContext(sessionId: string): Promise<Reconciliation['kind'] | 'uninitialized'> {
    const session = this.sessions.get(sessionId);
    const epoch = this.epochs.find(sessionId);
    if (!epoch) return 'uninitialized';
    const sources = await this.contextSources(session);
    const result = epoch.replacementPending
      ? await replace(this.profile, sources, epoch.snapshot)
      : await reconcile(this.profile, sources, epoch.snapshot);
    return result.kind;
  }

  private contextSources(session: Session) {
    return this.contexts.sources(
      session.location,
      session.projectRoot,
      this.agents.agent(session.agent),
      this.nested.paths(session.id),
    );
  }

  epoch(sessionId: string): ContextEpoch | undefined {
    this.sessions.get(sessionId);
    return this.epochs.find(sessionId);
  }

  messages(sessionId: string): SessionMessage[] {
    this.sessions.get(sessionId);
    return this.history.messages(sessionId);
  }

  /** The newest `limit` messages before message `before` (the newest of all without it), in durable order. */
  messagePage(sessionId: string, limit: number, before?: string): SessionMessage[] {
    this.sessions.get(sessionId);
    return this.history.page(sessionId, limit, before);
  }

  inboxRows(sessionId: string): InboxRow[] {
    this.sessions.get(sessionId);
    return this.inbox.rows(sessionId);
  }

  events(sessionId: string, after = 0): StoredEvent[] {
    this.sessions.get(sessionId);
    return this.log.after(sessionId, after);
  }

  /** Replays the session's durable events after `after`, then tails new ones. */
  tail(sessionId: string, after: number, onEvent: (event: StoredEvent) => void): () => void {
    this.sessions.get(sessionId);
    return this.log.tail(sessionId, after, onEvent);
  }

  /** Stops at once, as a process exit would: the store closes first, so no later write lands. */
  terminate(): void {
    this.db.close();
    this.coordinator.abandonAll();
  }
}
