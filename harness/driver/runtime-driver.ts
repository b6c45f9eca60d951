import { isPartOfCommand } from '../protocol/protocol-schema.js';
import {
  PROTOCOL,
  type Command,
  type CommandName,
  type CommandRequest,
  type CommandResult,
  type CrashPoint,
  type DurableEvent,
  type ErrorCode,
  type HistoryMessage,
  type InboxResult,
  type FailuresResult,
  type PromptContent,
  type PromptReceipt,
  type ProviderDialectName,
  type Reply,
  type RuntimeConfig,
  type RuntimeDescription,
  type SessionCreateResult,
} from '../protocol/protocol.js';
import { withStderr, type RuntimeLauncher, type Transport } from './transport.js';
import { sharedValidator, type ProtocolValidator } from '../protocol/validation.js';
import { PROCESS_REUSE, capabilityOfCommand, declares, type Capability } from '../protocol/capabilities.js';
import { TimeLedger, type TimePart } from './time-spent.js';
import { commandInBrief, noAnswerMessage } from './no-answer.js';

/** How long one command may take before the runtime counts as hung; `--timeout-scale` multiplies it. */
export const COMMAND_TIMEOUT_MS = 5_000;
/** How many command timeouts in all a wait may last while the runtime keeps taking scripted provider turns. */
const PROGRESS_EXTENSIONS = 4;

/**
 * How long a fresh runtime process may take to answer its `hello`: starting a process on a loaded
 * machine can take far longer than any command, and a slow start is not a hung runtime.
 * `--timeout-scale` multiplies it too.
 */
export const STARTUP_ALLOWANCE_MS = 60_000;

/** The factors `--timeout-scale` accepts: timeouts from 0.5 s to 500 s. */
export const TIMEOUT_SCALE_RANGE = { min: 0.1, max: 100 } as const;

/** A runtime answered a command with an error from the closed vocabulary. */
export class RuntimeReportedError extends Error {
  constructor(
    readonly code: ErrorCode,
    /** The runtime's own words. */
    readonly reason: string,
    readonly command: Command,
  ) {
    super(`${command.cmd} failed with ${code}: ${reason}`);
    this.name = 'RuntimeReportedError';
  }
}

/** The runtime did not answer in time: a hung runtime fails the scenario instead of the run. */
export class RuntimeTimeout extends Error {
  constructor(command: Command, ms: number, stderr?: string) {
    super(withStderr(noAnswerMessage(command, ms), stderr));
    this.name = 'RuntimeTimeout';
  }
}

/**
 * The commands that wait for the runtime to reach a state, and the state each awaits. One not
 * answered in time is the runtime's behaviour (it never got there), not a runtime the kit cannot
 * drive: the step fails, naming what it awaited.
 */
const AWAITED: Partial<Record<CommandName, string>> = {
  'session.idle': 'the session to settle (no active or scheduled drain)',
  'session.interrupt': 'the interrupted drain to end its cleanup',
  'permission.wait': 'a tool call waiting for permission',
  'retry.wait': 'the scheduled retry of the failed provider request',
  'gate.wait': 'a call of the gate tool blocked on the gate',
};

/** The part of a scenario's time a command that answered in time spent. */
function partOf(cmd: CommandName): TimePart {
  if (cmd === 'hello' || cmd === 'runtime.close') return 'starts and stops';
  if (cmd === 'session.idle') return 'awaiting idleness';
  return AWAITED[cmd] ? 'other awaited states' : 'other commands';
}

/** A wait that ended at its deadline without the runtime reaching the awaited state. */
export class AwaitedStateNotReached extends Error {
  constructor(
    readonly command: Command,
    awaited: string,
    ms: number,
    stderr?: string,
  ) {
    super(withStderr(`the runtime did not reach ${awaited} within ${ms} ms (${commandInBrief(command)})`, stderr));
    this.name = 'AwaitedStateNotReached';
  }
}

/** What a command carries besides its name. */
type Arguments<C extends CommandName> =
  CommandRequest<C> extends infer Request ? (Request extends unknown ? Omit<Request, 'cmd'> : never) : never;

export type AdmitOptions = Omit<Arguments<'prompt.admit'>, 'sessionId' | 'prompt'>;

/** Typed commands and observations over one runtime, across restarts of its process. */
export class RuntimeDriver {
  private transport!: Transport;
  private config!: RuntimeConfig;
  /** What the runtime said of itself in its latest `hello`. */
  description!: RuntimeDescription;
  /** Whether the latest `hello` was answered by a process kept from an earlier runtime (process-reuse). */
  reusedProcess = false;
  /** Set by `stop`: a released process belongs to the launcher again. */
  private stopped = false;
  /** Settles when a runtime armed with `fault.crash` has exited. */
  private crashed: Promise<void> | undefined;
  /** The optional capabilities the commands sent so far needed (`restart` once the kit restarted the runtime). */
  readonly capabilitiesUsed = new Set<Capability>();
  /**
   * The names under the hello's `emulated` the scenario's calls used: those an answer names, or,
   * where it names none, every one of its command's.
   */
  readonly emulatedUsed = new Set<string>();
  /** How many commands after a handshake were answered: the runtime was driven, not only started. */
  commandsAnswered = 0;
  /** Where the scenario's time went in the runtime's starts, waits and commands. */
  readonly time = new TimeLedger();
  /** Called when the kit has killed the runtime's process (a restart) or it crashed, before a new one starts. */
  onProcessEnded: () => void = () => {};

  private constructor(
    private readonly launcher: RuntimeLauncher,
    private readonly timeoutScale: number,
    private readonly validator: ProtocolValidator | undefined,
    private readonly progress: () => number,
  ) {}

  /**
   * `timeoutScale` multiplies both the per-command timeout and the start-up allowance. `progress`
   * counts the runtime's headway (the scripted provider turns it took): a wait for a state it has
   * not reached yet goes on while that count grows.
   */
  static async start(
    launcher: RuntimeLauncher,
    config: Omit<RuntimeConfig, 'instance'>,
    options: { timeoutScale: number; validate: boolean; progress?: () => number },
  ): Promise<RuntimeDriver> {
    const driver = new RuntimeDriver(
      launcher,
      options.timeoutScale,
      options.validate ? sharedValidator() : undefined,
      options.progress ?? (() => 0),
    );
    await driver.open({ ...config, instance: 0 }, true);
    return driver;
  }

  /** Kills the runtime process and starts a fresh one over the same durable store, in `timeZone` when given. */
  async restart(now: string, timeZone?: string): Promise<void> {
    this.capabilitiesUsed.add('restart');
    await this.time.measure('starts and stops', () => this.transport.kill());
    this.onProcessEnded();
    await this.open({ ...this.config, now, instance: this.config.instance + 1, ...(timeZone ? { timeZone } : {}) });
  }

  /**
   * Kills the runtime process and starts a fresh one over the same durable store, talking to a
   * provider of `dialect`; a runtime that does not speak it refuses it in its handshake (unsupported).
   */
  async restartSpeaking(dialect: ProviderDialectName, now: string): Promise<void> {
    this.capabilitiesUsed.add('restart');
    await this.time.measure('starts and stops', () => this.transport.kill());
    this.onProcessEnded();
    const { config } = this;
    await this.open({ ...config, now, instance: config.instance + 1, provider: { ...config.provider, dialect } });
  }

  /**
   * Ends the runtime. A runtime declaring process-reuse that was never armed to crash is closed
   * with `runtime.close` and its process kept for the next scenario's start; any other is killed.
   * Durability is proven by restarts only, and each restart within a scenario is a fresh process.
   */
  async stop(): Promise<void> {
    const { transport } = this;
    if (this.stopped) return;
    this.stopped = true;
    if (transport.release && !this.crashed && declares(this.description, PROCESS_REUSE))
      await transport.release(() => this.call('runtime.close'));
    else await this.time.measure('starts and stops', () => transport.kill());
  }

  /** Arms a real crash right after the session's named durable write (capability fault-injection). */
  async crashAfter(sessionId: string, after: CrashPoint): Promise<void> {
    await this.call('fault.crash', { sessionId, after });
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
      await this.time.measure('other awaited states', () => Promise.race([this.crashed!, late]));
    } finally {
      clearTimeout(timer);
      this.crashed = undefined;
    }
    this.onProcessEnded();
    await this.open({ ...this.config, now, instance: this.config.instance + 1 });
  }

  /** Greets a kept process when `reuse` allows and one is kept, else a fresh one. */
  private async open(config: RuntimeConfig, reuse = false): Promise<void> {
    this.config = config;
    const kept = reuse ? await this.launcher.takeKept?.() : undefined;
    this.reusedProcess = false;
    if (kept) {
      this.transport = kept;
      try {
        this.description = await this.hello(COMMAND_TIMEOUT_MS);
        this.reusedProcess = true;
        return;
      } catch {
        // A kept process that cannot greet again is discarded: a fresh one answers for it.
        await this.time.measure('starts and stops', () => kept.kill());
      }
    }
    this.transport = await this.time.measure('starts and stops', () => this.launcher.start());
    try {
      this.description = await this.hello(STARTUP_ALLOWANCE_MS);
    } catch (error) {
      // A runtime that cannot even greet is stopped here: nobody else holds it to stop it later.
      await this.time.measure('starts and stops', () => this.transport.kill());
      throw error;
    }
  }

  private hello(unscaledMs: number): Promise<RuntimeDescription> {
    return this.send<'hello'>({ cmd: 'hello', protocol: PROTOCOL, config: this.config }, unscaledMs);
  }

  /**
   * Sends command `cmd` with its arguments and resolves to its result; a runtime's error rejects
   * with RuntimeReportedError.
   */
  call<C extends CommandName>(
    cmd: C,
    ...args: keyof Arguments<C> extends never ? [] : [Arguments<C>]
  ): Promise<CommandResult<C>> {
    return this.send({ cmd, ...args[0] } as CommandRequest<C>);
  }

  createSession(location: string, id?: string, projectRoot?: string): Promise<SessionCreateResult> {
    return this.call('session.create', {
      location,
      ...(id ? { id } : {}),
      ...(projectRoot ? { projectRoot } : {}),
    });
  }

  /** A plain string is a prompt of one text part. */
  admit(sessionId: string, content: string | PromptContent, options: AdmitOptions = {}): Promise<PromptReceipt> {
    const prompt: PromptContent = typeof content === 'string' ? { parts: [{ type: 'text', text: content }] } : content;
    return this.call('prompt.admit', { sessionId, prompt, ...options });
  }

  /** Profile `sol`: the inbox-free prompt entry, refused with `busy` while the session is processing. */
  submit(sessionId: string, text: string): Promise<CommandResult<'prompt.submit'>> {
    return this.call('prompt.submit', { sessionId, prompt: { parts: [{ type: 'text', text }] } });
  }

  async run(sessionId: string): Promise<void> {
    await this.call('session.run', { sessionId });
  }

  async wake(sessionId: string): Promise<void> {
    await this.call('session.wake', { sessionId });
  }

  async idle(sessionId: string): Promise<void> {
    await this.call('session.idle', { sessionId });
  }

  async setClock(now: string): Promise<void> {
    await this.call('clock.set', { now });
  }

  /** What a kit source observes from now on: a JSON value, or that it is unavailable or absent. */
  async setSource(
    key: string,
    observation: { value: unknown } | { state: 'unavailable' | 'absent' },
    nextValue?: { value: unknown },
    gate?: string,
  ): Promise<void> {
    await this.call('context.source.set', {
      key,
      ...observation,
      ...(nextValue ? { nextValue: nextValue.value } : {}),
      ...(gate ? { gate } : {}),
    });
  }

  /** The `gate` kit tool: waits until a call blocks on the named gate. */
  async gateBlocked(name: string): Promise<void> {
    await this.call('gate.wait', { name });
  }

  async openGate(name: string): Promise<void> {
    await this.call('gate.open', { name });
  }

  async history(sessionId: string): Promise<HistoryMessage[]> {
    return (await this.call('history', { sessionId })).messages;
  }

  async inbox(sessionId: string): Promise<InboxResult['rows']> {
    return (await this.call('inbox', { sessionId })).rows;
  }

  async failures(sessionId: string): Promise<FailuresResult['failures']> {
    return (await this.call('failures', { sessionId })).failures;
  }

  async events(sessionId: string, after = 0): Promise<DurableEvent[]> {
    return (await this.call('events', { sessionId, after })).events;
  }

  private noteEmulated(cmd: string, named: readonly string[] | undefined): void {
    const declared = Object.keys(this.description?.emulated ?? {});
    // An answer names what it emulated, of its own command or of another whose work it does (a
    // wake that sends held prompts one after another from the adapter's own queue).
    const used = named ? declared.filter((n) => named.includes(n)) : declared.filter((n) => isPartOfCommand(n, cmd));
    for (const name of used) this.emulatedUsed.add(name);
  }

  private async send<C extends CommandName>(
    command: CommandRequest<C>,
    unscaledMs = COMMAND_TIMEOUT_MS,
  ): Promise<CommandResult<C>> {
    this.validator?.checkCommand(command);
    const capability = capabilityOfCommand(command.cmd);
    if (capability) this.capabilitiesUsed.add(capability);
    const ms = unscaledMs * this.timeoutScale;
    const awaited = AWAITED[command.cmd];
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      // A runtime still taking scripted provider turns is on its way to the awaited state, however
      // slow a busy machine makes each: its wait goes on, up to a bound a runtime looping meets.
      let seen = this.progress();
      let waited = 0;
      const expire = () => {
        waited += ms;
        const now = this.progress();
        if (awaited && now !== seen && waited < ms * PROGRESS_EXTENSIONS) {
          seen = now;
          timer = setTimeout(expire, ms);
          return;
        }
        const stderr = this.transport.stderrTail?.();
        reject(
          awaited
            ? new AwaitedStateNotReached(command, awaited, waited, stderr)
            : new RuntimeTimeout(command, ms, stderr),
        );
      };
      timer = setTimeout(expire, ms);
    });
    const part = (error: unknown): TimePart =>
      error instanceof AwaitedStateNotReached || error instanceof RuntimeTimeout
        ? 'waits ended by timeout'
        : partOf(command.cmd);
    try {
      const reply: Reply = await this.time.measure(
        part,
        () => Promise.race([this.transport.send(command), timeout]),
        command.cmd,
      );
      this.validator?.checkReply(command, reply);
      if (!reply.ok) throw new RuntimeReportedError(reply.error.code, reply.error.message, command);
      this.noteEmulated(command.cmd, reply.emulated);
      if (command.cmd !== 'hello') this.commandsAnswered += 1;
      return reply.result as CommandResult<C>;
    } finally {
      clearTimeout(timer);
    }
  }
}
