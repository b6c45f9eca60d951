import type {
  CompactionSettings,
  CrashPoint,
  Command,
  CompactionView,
  ReconcileOutcome,
  ContextEpochView,
  KitSourceDeclaration,
  PermissionRequestView,
  ScheduledRetryView,
  DurableEvent,
  Failure,
  HistoryMessage,
  InboxRow,
  PromptContent,
  PromptReceipt,
  PtyEnvironmentView,
  Reply,
  RuntimeConfig,
  RuntimeDescription,
  SessionCreated,
  ToolOutputFiles,
  ToolOutputWriteMode,
} from './protocol.js';
import { PROTOCOL } from './protocol.js';
import { withStderr, type RuntimeLauncher, type Transport } from './transport.js';
import { sharedValidator, type ProtocolValidator } from '../protocol/validation.js';
import { capabilityOfCommand, type Capability } from '../protocol/capabilities.js';

/** How long one command may take before the runtime counts as hung; `--timeout-scale` multiplies it. */
export const COMMAND_TIMEOUT_MS = 5_000;

/**
 * How long a fresh runtime process may take to answer its `hello`: starting a process on a loaded
 * machine can take far longer than any command, and a slow start is not a hung runtime.
 * `--timeout-scale` multiplies it too.
 */
export const STARTUP_ALLOWANCE_MS = 60_000;

/** A runtime answered a command with an error from the closed vocabulary. */
export class RuntimeReportedError extends Error {
  constructor(
    readonly code: string,
    message: string,
    readonly command: Command,
  ) {
    super(`${command.cmd} failed with ${code}: ${message}`);
    this.name = 'RuntimeReportedError';
  }
}

/** The runtime did not answer in time: a hung runtime fails the scenario instead of the run. */
export class RuntimeTimeout extends Error {
  constructor(command: Command, ms: number, stderr?: string) {
    super(withStderr(`the runtime did not answer ${JSON.stringify(command)} within ${ms} ms`, stderr));
    this.name = 'RuntimeTimeout';
  }
}

export interface AdmitOptions {
  id?: string;
  delivery?: string;
  resume?: boolean;
}

/** Typed commands and observations over one runtime, across restarts of its process. */
export class RuntimeDriver {
  private transport!: Transport;
  private config!: RuntimeConfig;
  /** What the runtime said of itself in its latest `hello`. */
  description!: RuntimeDescription;
  /** Settles when a runtime armed with `fault.crash` has exited. */
  private crashed: Promise<void> | undefined;
  /** The optional capabilities the commands sent so far needed (`restart` once the kit restarted the runtime). */
  readonly capabilitiesUsed = new Set<Capability>();

  private constructor(
    private readonly launcher: RuntimeLauncher,
    private readonly timeoutScale: number,
    private readonly validator: ProtocolValidator | undefined,
  ) {}

  /** `timeoutScale` multiplies both the per-command timeout and the start-up allowance. */
  static async start(
    launcher: RuntimeLauncher,
    config: Omit<RuntimeConfig, 'instance'>,
    options: { timeoutScale: number; validate: boolean },
  ): Promise<RuntimeDriver> {
    const driver = new RuntimeDriver(launcher, options.timeoutScale, options.validate ? sharedValidator() : undefined);
    await driver.open({ ...config, instance: 0 });
    return driver;
  }

  /** Kills the runtime process and starts a fresh one over the same durable store, in `timeZone` when given. */
  async restart(now: string, timeZone?: string): Promise<void> {
    this.capabilitiesUsed.add('restart');
    await this.transport.kill();
    await this.open({ ...this.config, now, instance: this.config.instance + 1, ...(timeZone ? { timeZone } : {}) });
  }

  stop(): Promise<void> {
    return this.transport.kill();
  }

  /** Arms a real crash right after the session's named durable write (capability fault-injection). */
  async crashAfter(sessionId: string, after: CrashPoint): Promise<void> {
    await this.call({ cmd: 'fault.crash', sessionId, after });
    if (!this.transport.expectExit)
      throw new Error('the runtime accepted fault.crash but its transport cannot outlive its process');
    this.crashed = this.transport.expectExit();
  }

  /** Waits for the armed crash, then starts a fresh process over the same durable store. */
  async startAfterCrash(now: string): Promise<void> {
    if (!this.crashed) throw new Error('no crash was armed');
    this.capabilitiesUsed.add('restart');
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<never>((_, reject) => {
      const ms = COMMAND_TIMEOUT_MS * this.timeoutScale;
      timer = setTimeout(() => reject(new Error(`the runtime did not crash at the armed point within ${ms} ms`)), ms);
    });
    try {
      await Promise.race([this.crashed, late]);
    } finally {
      clearTimeout(timer);
      this.crashed = undefined;
    }
    await this.open({ ...this.config, now, instance: this.config.instance + 1 });
  }

  private async open(config: RuntimeConfig): Promise<void> {
    this.config = config;
    this.transport = await this.launcher.start();
    try {
      this.description = await this.call({ cmd: 'hello', protocol: PROTOCOL, config }, STARTUP_ALLOWANCE_MS);
    } catch (error) {
      // A runtime that cannot even greet is stopped here: nobody else holds it to stop it later.
      await this.transport.kill();
      throw error;
    }
  }

  createSession(location: string, id?: string, projectRoot?: string): Promise<SessionCreated> {
    return this.call({
      cmd: 'session.create',
      location,
      ...(id ? { id } : {}),
      ...(projectRoot ? { projectRoot } : {}),
    });
  }

  /** A plain string is a prompt of one text part. */
  admit(sessionId: string, content: string | PromptContent, options: AdmitOptions = {}): Promise<PromptReceipt> {
    const prompt: PromptContent = typeof content === 'string' ? { parts: [{ type: 'text', text: content }] } : content;
    return this.call({ cmd: 'prompt.admit', sessionId, prompt, ...options });
  }

  /** Profile `sol`: the inbox-free prompt entry, refused with `busy` while the session is processing. */
  submit(sessionId: string, text: string): Promise<{ messageId: string }> {
    return this.call({ cmd: 'prompt.submit', sessionId, prompt: { parts: [{ type: 'text', text }] } });
  }

  /** Profile `sol`: waits until the session has scheduled retry `retry` of a failed provider request. */
  retryScheduled(sessionId: string, retry: number): Promise<ScheduledRetryView> {
    return this.call({ cmd: 'retry.wait', sessionId, retry });
  }

  run(sessionId: string): Promise<void> {
    return this.call({ cmd: 'session.run', sessionId });
  }

  wake(sessionId: string): Promise<void> {
    return this.call({ cmd: 'session.wake', sessionId });
  }

  interrupt(sessionId: string): Promise<void> {
    return this.call({ cmd: 'session.interrupt', sessionId });
  }

  idle(sessionId: string): Promise<void> {
    return this.call({ cmd: 'session.idle', sessionId });
  }

  move(sessionId: string, location: string): Promise<void> {
    return this.call({ cmd: 'session.move', sessionId, location });
  }

  select(sessionId: string, selection: { agent?: string | null; model?: string | null }): Promise<void> {
    return this.call({ cmd: 'session.select', sessionId, ...selection });
  }

  epoch(sessionId: string): Promise<ContextEpochView> {
    return this.call({ cmd: 'epoch', sessionId });
  }

  registerContributor(location: string, contributor: string, sources: KitSourceDeclaration[]): Promise<void> {
    return this.call({ cmd: 'context.contributor.register', location, contributor, sources });
  }

  removeContributor(location: string, contributor: string): Promise<void> {
    return this.call({ cmd: 'context.contributor.remove', location, contributor });
  }

  /** Tools the kit contributes to a location (each says that it ran when called); advertised from the next turn. */
  contributeTools(location: string, contribution: string, tools: string[]): Promise<void> {
    return this.call({ cmd: 'tool.contribution.register', location, contribution, tools });
  }

  closeToolContribution(location: string, contribution: string): Promise<void> {
    return this.call({ cmd: 'tool.contribution.close', location, contribution });
  }

  /** What a kit source observes from now on: a JSON value, or that it is unavailable or absent. */
  setSource(
    key: string,
    observation: { value: unknown } | { state: 'unavailable' | 'absent' },
    nextValue?: { value: unknown },
    gate?: string,
  ): Promise<void> {
    return this.call({
      cmd: 'context.source.set',
      key,
      ...observation,
      ...(nextValue ? { nextValue: nextValue.value } : {}),
      ...(gate ? { gate } : {}),
    });
  }

  defineAgent(
    name: string,
    tools: Record<string, 'allow' | 'deny' | 'ask'>,
    skills: Record<string, 'allow' | 'deny'>,
  ): Promise<void> {
    return this.call({ cmd: 'agent.define', name, tools, skills });
  }

  defineSkill(name: string, description: string, body: string, location?: string): Promise<void> {
    return this.call({ cmd: 'skill.define', name, description, body, ...(location === undefined ? {} : { location }) });
  }

  permissionAsked(sessionId: string): Promise<void> {
    return this.call({ cmd: 'permission.wait', sessionId });
  }

  async permissionRequests(sessionId: string): Promise<PermissionRequestView[]> {
    return (await this.call<{ requests: PermissionRequestView[] }>({ cmd: 'permission.pending', sessionId })).requests;
  }

  replyPermission(id: string, approve: boolean): Promise<void> {
    return this.call({ cmd: 'permission.reply', id, approve });
  }

  setHostEnv(name: string, value: string | null): Promise<void> {
    return this.call({ cmd: 'host.env.set', name, value });
  }

  configureCompaction(budget: CompactionSettings): Promise<void> {
    return this.call({ cmd: 'compaction.configure', ...budget });
  }

  requestCompaction(sessionId: string): Promise<void> {
    return this.call({ cmd: 'compaction.request', sessionId });
  }

  async compactions(sessionId: string): Promise<CompactionView[]> {
    return (await this.call<{ compactions: CompactionView[] }>({ cmd: 'compactions', sessionId })).compactions;
  }

  async reconcileOutcome(sessionId: string): Promise<ReconcileOutcome> {
    return (await this.call<{ outcome: ReconcileOutcome }>({ cmd: 'context.reconcile', sessionId })).outcome;
  }

  failSystemMessageWrites(failing: boolean): Promise<void> {
    return this.call({ cmd: 'fault.system-message-writes', failing });
  }

  setClock(now: string): Promise<void> {
    return this.call({ cmd: 'clock.set', now });
  }

  gateBlocked(name: string): Promise<void> {
    return this.call({ cmd: 'gate.wait', name });
  }

  openGate(name: string): Promise<void> {
    return this.call({ cmd: 'gate.open', name });
  }

  async history(sessionId: string): Promise<HistoryMessage[]> {
    return (await this.call<{ messages: HistoryMessage[] }>({ cmd: 'history', sessionId })).messages;
  }

  async inbox(sessionId: string): Promise<InboxRow[]> {
    return (await this.call<{ rows: InboxRow[] }>({ cmd: 'inbox', sessionId })).rows;
  }

  async failures(sessionId: string): Promise<Failure[]> {
    return (await this.call<{ failures: Failure[] }>({ cmd: 'failures', sessionId })).failures;
  }

  async events(sessionId: string, after = 0): Promise<DurableEvent[]> {
    return (await this.call<{ events: DurableEvent[] }>({ cmd: 'events', sessionId, after })).events;
  }

  async subscribe(sessionId: string, after: number): Promise<string> {
    return (await this.call<{ subscription: string }>({ cmd: 'events.subscribe', sessionId, after })).subscription;
  }

  configureToolOutput(maxLines: number, maxBytes: number): Promise<void> {
    return this.call({ cmd: 'tool-output.configure', maxLines, maxBytes });
  }

  toolOutputFiles(): Promise<ToolOutputFiles> {
    return this.call({ cmd: 'tool-output.files' });
  }

  setToolOutputWrites(mode: ToolOutputWriteMode): Promise<void> {
    return this.call({ cmd: 'fault.tool-output-writes', mode });
  }

  /** Resolves once a Managed Tool Output File write is held (mode `holding`). */
  toolOutputWriteHeld(): Promise<void> {
    return this.call({ cmd: 'tool-output.held' });
  }

  async diagnostics(): Promise<string[]> {
    return (await this.call<{ diagnostics: string[] }>({ cmd: 'diagnostics' })).diagnostics;
  }

  setPtyOverlay(location: string, env: Record<string, string>): Promise<void> {
    return this.call({ cmd: 'pty.overlay.set', location, env });
  }

  ptyEnvironment(request: {
    location: string;
    cwd?: string;
    env: Record<string, string>;
    server: 'hosted' | 'standalone';
  }): Promise<PtyEnvironmentView> {
    return this.call({ cmd: 'pty.environment', ...request });
  }

  async take(subscription: string): Promise<DurableEvent[]> {
    return (await this.call<{ events: DurableEvent[] }>({ cmd: 'events.take', subscription })).events;
  }

  private async call<T = void>(command: Command, unscaledMs = COMMAND_TIMEOUT_MS): Promise<T> {
    this.validator?.checkCommand(command);
    const capability = capabilityOfCommand(command.cmd);
    if (capability) this.capabilitiesUsed.add(capability);
    const ms = unscaledMs * this.timeoutScale;
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new RuntimeTimeout(command, ms, this.transport.stderrTail?.())), ms);
    });
    try {
      const reply: Reply = await Promise.race([this.transport.send(command), timeout]);
      this.validator?.checkReply(command, reply);
      if (!reply.ok) throw new RuntimeReportedError(reply.error.code, reply.error.message, command);
      return reply.result as T;
    } finally {
      clearTimeout(timer);
    }
  }
}
