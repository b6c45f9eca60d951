/**
 * The commands the kit sends to a runtime and the observations it reads back. Everything here is
 * plain JSON, so the same exchange can travel to a runtime in another process or language.
 */

export type Delivery = 'steer' | 'queue';

export type PromptPart =
  | { type: 'text'; text: string }
  | { type: 'image'; mediaType: string; data: string; source?: string };

export interface PromptContent {
  parts: PromptPart[];
}

/** Closed vocabulary of errors a runtime reports; runtimes translate their own errors into it. */
export const ERROR_CODES = ['invalid-input', 'conflict', 'not-found', 'unsupported', 'busy'] as const;
export type ErrorCode = (typeof ERROR_CODES)[number];

export const PROTOCOL = 'session-runtime-adapter/1';

/**
 * The commands, as `harness/protocol/session-runtime-adapter-1.schema.json` defines them; the
 * schema is the reference, checked against every message at run time.
 */
export type Command =
  | { cmd: 'hello'; protocol: typeof PROTOCOL; config: RuntimeConfig }
  | { cmd: 'session.create'; id?: string; location: string; projectRoot?: string }
  | {
      cmd: 'prompt.admit';
      sessionId: string;
      id?: string;
      prompt: PromptContent;
      delivery?: string;
      resume?: boolean;
    }
  /** Profile `sol`: the prompt entry of a runtime without an inbox; `busy` while the session is processing. */
  | { cmd: 'prompt.submit'; sessionId: string; id?: string; prompt: PromptContent }
  /** Profile `sol`: answers once the session waits, on the virtual clock, to send retry `retry`. */
  | { cmd: 'retry.wait'; sessionId: string; retry: number }
  /** Schedules work and returns at once; `session.idle` waits for it. */
  | { cmd: 'session.run' | 'session.wake' | 'session.idle'; sessionId: string }
  /** Returns after the interrupted drain has finished its cleanup. */
  | { cmd: 'session.interrupt'; sessionId: string }
  | { cmd: 'session.move'; sessionId: string; location: string; projectRoot?: string }
  | { cmd: 'session.select'; sessionId: string; agent?: string | null; model?: string | null }
  | { cmd: 'epoch'; sessionId: string }
  | {
      cmd: 'context.contributor.register';
      location: string;
      projectRoot?: string;
      contributor: string;
      sources: KitSourceDeclaration[];
    }
  | { cmd: 'context.contributor.remove'; location: string; projectRoot?: string; contributor: string }
  | { cmd: 'tool.contribution.register'; location: string; contribution: string; tools: string[] }
  | { cmd: 'tool.contribution.close'; location: string; contribution: string }
  | ({ cmd: 'context.source.set'; key: string; nextValue?: unknown; gate?: string } & (
      | { value: unknown }
      | { state: 'unavailable' | 'absent' }
    ))
  | {
      cmd: 'agent.define';
      name: string;
      tools: Record<string, 'allow' | 'deny' | 'ask'>;
      skills: Record<string, 'allow' | 'deny'>;
    }
  | { cmd: 'skill.define'; name: string; description: string; body: string; location?: string }
  | { cmd: 'permission.wait' | 'permission.pending'; sessionId: string }
  | { cmd: 'permission.reply'; id: string; approve: boolean }
  | { cmd: 'host.env.set'; name: string; value: string | null }
  | { cmd: 'fault.system-message-writes'; failing: boolean }
  | { cmd: 'fault.crash'; sessionId: string; after: CrashPoint }
  | ({ cmd: 'compaction.configure' } & CompactionSettings)
  | { cmd: 'compaction.request' | 'compactions' | 'context.reconcile'; sessionId: string }
  | { cmd: 'clock.set'; now: string }
  /** The `gate` kit tool: wait until a call blocks on the named gate, or open it. */
  | { cmd: 'gate.wait' | 'gate.open'; name: string }
  | { cmd: 'history' | 'inbox' | 'failures'; sessionId: string }
  | { cmd: 'events'; sessionId: string; after?: number }
  | { cmd: 'events.subscribe'; sessionId: string; after: number }
  | { cmd: 'events.take'; subscription: string }
  /** Model Tool Output: the aggregate limit of every later settlement, and the Managed Tool Output Files. */
  | { cmd: 'tool-output.configure'; maxLines: number; maxBytes: number }
  | { cmd: 'tool-output.files' | 'tool-output.held' | 'diagnostics' }
  | { cmd: 'fault.tool-output-writes'; mode: ToolOutputWriteMode }
  /** The PTY Environment: the kit's host overlay for a location, and what a PTY would get. */
  | { cmd: 'pty.overlay.set'; location: string; env: Record<string, string> }
  | {
      cmd: 'pty.environment';
      location: string;
      cwd?: string;
      env: Record<string, string>;
      server: 'hosted' | 'standalone';
    };

export type Reply<T = unknown> = { ok: true; result: T } | { ok: false; error: { code: string; message: string } };

export interface SessionCreated {
  sessionId: string;
  created: boolean;
}

export interface PromptReceipt {
  messageId: string;
  state: 'pending' | 'promoted';
  duplicate: boolean;
}

export type HistoryMessage =
  /**
   * `compaction` is the hidden checkpoint of a completed compaction; its text is the summary.
   * A system message may name the Context Sources whose changes it announces (`sourceKeys`).
   */
  | {
      id: string;
      seq: number;
      role: 'user' | 'system' | 'compaction';
      hidden: boolean;
      text: string;
      sourceKeys?: string[];
      /** Profile `continuation`: a user message the runtime injected after a compaction. */
      continuation?: boolean;
      /** The continuation stands for a user message that had media, which it does not carry. */
      continuationOfMedia?: boolean;
    }
  | {
      id: string;
      seq: number;
      role: 'assistant';
      hidden: boolean;
      status: 'streaming' | 'completed' | 'failed';
      text: string;
      toolCalls: { callId: string; name: string; input: string }[];
    }
  | {
      id: string;
      seq: number;
      role: 'tool';
      hidden: boolean;
      status: 'running' | 'success' | 'error' | 'interrupted';
      assistantMessageId: string;
      callId: string;
      name: string;
      output: string | null;
      /** The tool's structured result, as the tool returned it. */
      structured?: unknown;
      /** Where the complete output is, when `output` was bounded. */
      outputPath?: string;
      /** Profile `sol`: the model reads a replacement text instead of `output`. */
      pruned?: boolean;
    };

export interface InboxRow {
  messageId: string;
  text: string;
  delivery: Delivery;
  state: 'pending' | 'promoted';
  admittedSeq: number;
  promotedSeq: number | null;
}

export interface DurableEvent {
  seq: number;
  type: string;
  at: string;
}

/** Why a drain stopped with work left; closed vocabulary. */
export interface Failure {
  code:
    | 'turn-limit'
    | 'provider-error'
    | 'stream-cut'
    | 'context-unavailable'
    | 'context-invalid'
    | 'compaction-failed'
    | 'context-overflow'
    | 'doom-loop';
  message: string;
}

export type ProviderDialectName = 'openai-chat' | 'anthropic-messages';

/**
 * A Context Source whose renderers the kit defines (see docs/implementers.md): baseline
 * `<key> = <json>`, update `<key> is now <json>`, removal `<key> (was <json>) no longer applies`.
 */
export interface KitSourceDeclaration {
  key: string;
  removable?: boolean;
  /** Delay its loader by this many event-loop turns, so loaders finish in another order. */
  latency?: number;
}

export interface ContextEpochView {
  baseline: string | null;
  snapshot: Record<string, { value: unknown; removal?: string }>;
}

export interface CompactionView {
  status: 'started' | 'completed' | 'failed';
  summary?: string;
  tokensFreed?: number;
}

/** The four outcomes of reconciling a session's context at a boundary. */
export type ReconcileOutcome = 'unchanged' | 'updated' | 'replacement-ready' | 'replacement-blocked' | 'uninitialized';

/** A provider retry a runtime has scheduled: it sends the request again once the clock reaches `at`. */
export interface ScheduledRetryView {
  retry: number;
  delayMs: number;
  at: string;
  /** Why the failure may pass on a retry, for people. */
  reason?: string;
}

export interface PermissionRequestView {
  id: string;
  tool: string;
  agent: string;
}

/** What a runtime says of itself in answer to `hello`. */
export interface RuntimeDescription {
  protocol: typeof PROTOCOL;
  runtime: { name: string; version: string; language: string };
  profiles: string[];
  capabilities: string[];
  texts: Record<string, string>;
  /** The runtime's own shell tool: how the kit expresses its tools when it lacks capability `kit-tools`. */
  shell?: ShellDeclaration;
}

/**
 * A shell tool whose input field `commandField` holds a POSIX sh command run in the session's
 * location; `workdirField`, when the tool has one, is the structured input naming the directory to
 * run it in instead.
 */
export interface ShellDeclaration {
  tool: string;
  commandField: string;
  workdirField?: string;
}

/** What the kit hands a runtime when it starts one. */
export interface RuntimeConfig {
  storeDir: string;
  provider: { dialect: ProviderDialectName; baseUrl: string; apiKey: string; model: string };
  now: string;
  instance: number;
  /** Stands for the user's home configuration directory (where the global AGENTS.md lives). */
  home: string;
  /** IANA time zone of the runtime's host-local date (the adapter sets `TZ`); absent means UTC. */
  timeZone?: string;
}

/** Managed Tool Output File writes work, fail for real, or hang once complete (to kill the process there). */
export type ToolOutputWriteMode = 'working' | 'failing' | 'holding';

export interface ToolOutputFiles {
  directory: string;
  /** Absolute paths of everything in the directory. */
  files: string[];
}

export interface PtyEnvironmentView {
  cwd: string;
  env: Record<string, string>;
}

/** The context budget of `compaction.configure`, and the switches of profile sol. */
export interface CompactionSettings {
  contextWindow: number;
  outputAllowance: number;
  buffer: number;
  modelWindows?: Record<string, number>;
  auto?: boolean;
  prune?: boolean;
}

/** The durable writes right after which a runtime can be made to crash (`fault.crash`). */
export type CrashPoint = 'admission' | 'promotion' | 'system-message' | 'tool-output-file' | 'compaction-start';
