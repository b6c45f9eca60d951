import { join } from 'node:path';
import { DEFAULT_DELIVERY, SessionRuntime } from '../runtime.js';
import { RuntimeError } from '../errors.js';
import type { ProviderConfig } from '../provider/provider-turn-stream.js';
import type { SessionMessage } from '../history/message.js';
import { promptText, type StoredEvent } from '../events/session-event.js';
import type { IdSource } from '../ids.js';
import { GateBoard, kitTools } from './kit-tools.js';
import { bashTool } from '../tools/bash-tool.js';
import { KitSources } from './kit-sources.js';
import { WriteFaults } from './write-faults.js';
import type { Json } from '../context/context-source.js';
import type { ToolPermission } from '../agents/agent-catalog.js';
import { REVOCATION, SUPERSESSION } from '../context/sources/instructions.js';
import { wrapSystemFallback } from '../provider/system-fallback.js';
import { FILE_REVOCATION } from '../context/sources/instruction-files.js';
import { Profile } from '../profile.js';
import { readdir } from 'node:fs/promises';
import { PRUNED_TOOL_OUTPUT } from '../history/message.js';
import { DEFAULT_RETENTION_MS } from '../tools/managed-tool-output-files.js';
import { ToolOutputFaults, type ToolOutputWriteMode } from './tool-output-faults.js';
import { KitPtyOverlay } from './kit-pty-overlay.js';
import { CrashPoints, type CrashPoint } from './crash-points.js';
import { VirtualClock } from './virtual-clock.js';
import { CONTINUE_TEXT } from '../compaction/continuation.js';
import { COMPACTION_PROMPT, COMPACTION_SYSTEM_PROMPT } from '../compaction/compactor.js';
import { ptyEnvironment, standaloneOverlay, type Environment } from '../pty/pty-environment.js';

/**
 * Serves the conformance kit's driver commands (plain JSON in, plain JSON out) over a reference
 * runtime. This is the only module that knows the kit's command names; the runtime does not.
 */

export interface AdapterConfig {
  /** A directory the runtime owns; the same directory after a restart holds the same state. */
  storeDir: string;
  provider: ProviderConfig;
  /** The virtual time at start, ISO 8601. */
  now: string;
  /** Distinguishes the processes started over one store, so generated IDs never repeat. */
  instance: number;
  /** The user's global configuration directory. */
  home: string;
  /** The IANA time zone of the host-local date; UTC when absent. */
  timeZone?: string;
}

type Command = { cmd: string } & Record<string, unknown>;
type Reply = { ok: true; result: unknown } | { ok: false; error: { code: string; message: string } };

export interface Adapter {
  handle(command: Command): Promise<Reply>;
  terminate(): void;
}

const PROTOCOL = 'session-runtime-adapter/1';

/**
 * The reference implements each profile by configuration: REFERENCE_PROFILE=checkpoint selects the
 * earlier Context Checkpoint design, REFERENCE_PROFILE=sol adds the pruning, token usage, retry and
 * doom-loop behaviour of the Go session package to the core design, REFERENCE_PROFILE=continuation
 * injects a continuation message after each compaction; the default is the core design alone.
 */
const profile = Profile.parse(process.env.REFERENCE_PROFILE);

/**
 * The optional capabilities and the commands each one needs. REFERENCE_MEANS=neutral declares
 * none of them and refuses their commands, so the reference is judged as a black-box runtime is:
 * through its own shell tool, instruction files, restarts and the time zone only. (The reference
 * imports nothing from the kit, so this mirrors the kit's table in harness/protocol/capabilities.ts.)
 */
const OPTIONAL_CAPABILITIES: Record<string, string[]> = {
  'kit-tools': ['gate.wait', 'gate.open'],
  'kit-sources': ['context.contributor.register', 'context.contributor.remove', 'context.source.set'],
  'virtual-clock': ['clock.set', 'retry.wait'],
  'fault-injection': ['fault.system-message-writes', 'fault.tool-output-writes', 'tool-output.held', 'fault.crash'],
  pty: ['pty.overlay.set', 'pty.environment', 'host.env.set'],
  'manual-compaction': ['compaction.request'],
  reconcile: ['context.reconcile'],
  // Only profile sol has an inbox-free prompt entry.
  ...(profile.offersInboxFreePrompts() ? { 'busy-submit': ['prompt.submit'] } : {}),
};
const neutral = process.env.REFERENCE_MEANS === 'neutral';
const capabilities = ['restart', ...(neutral ? [] : Object.keys(OPTIONAL_CAPABILITIES))];
const refused = new Set(neutral ? Object.values(OPTIONAL_CAPABILITIES).flat() : []);

/**
 * One adapter per runtime process: `hello` opens the runtime, every other command drives it.
 * Diagnostics are echoed to stderr by an adapter process, whose host keeps them for its reports;
 * inside the kit's own process they would only clutter a run's output, so there only with --debug.
 * `crash` ends the process at once; an adapter without it (in the kit's process) cannot crash.
 */
export function createAdapter(options: { echoDiagnostics?: boolean; crash?: () => void } = {}): Adapter {
  const echo = options.echoDiagnostics ?? process.env.KIT_DEBUG === '1';
  let served: Adapter | undefined;
  return {
    async handle(command) {
      if (command.cmd === 'hello') {
        if (command.protocol !== PROTOCOL) return failure('unsupported', `this adapter speaks ${PROTOCOL} only`);
        served ??= serve(command.config as AdapterConfig, echo, options.crash && new CrashPoints(options.crash));
        return {
          ok: true,
          result: {
            protocol: PROTOCOL,
            runtime: { name: 'reference', version: '0.1.0', language: 'typescript' },
            profiles: profile.declared(),
            capabilities,
            shell: { tool: bashTool.name, commandField: 'command', workdirField: 'workdir' },
            texts: {
              'instructions.file-revocation': FILE_REVOCATION,
              'instructions.supersession': SUPERSESSION,
              'instructions.revocation': REVOCATION,
              'system-message.fallback': wrapSystemFallback('{text}'),
              'prompt.default-delivery': DEFAULT_DELIVERY,
              'checkpoint.hash': 'sha256',
              'pruning.replacement': PRUNED_TOOL_OUTPUT,
              'pruning.protects-last-two-turns': 'yes',
              'tool-output.retention-days': String(DEFAULT_RETENTION_MS / 86_400_000),
              'continuation.continue': CONTINUE_TEXT,
              'compaction.system-prompt': COMPACTION_SYSTEM_PROMPT,
              'compaction.prompt': COMPACTION_PROMPT,
            },
          },
        };
      }
      return served ? served.handle(command) : failure('invalid-input', 'the first command must be hello');
    },
    terminate: () => served?.terminate(),
  };
}

function failure(code: string, message: string): Reply {
  return { ok: false, error: { code, message } };
}

/** Without `crashes` (a runtime in the kit's process), `fault.crash` is unsupported. */
function serve(config: AdapterConfig, echoDiagnostics: boolean, crashes: CrashPoints | undefined): Adapter {
  const clock = new VirtualClock(new Date(config.now));
  const gates = new GateBoard();
  const hostEnv: Record<string, string | undefined> = { TZ: config.timeZone };
  const kitSources = new KitSources();
  const databaseFile = join(config.storeDir, 'runtime.sqlite');
  const toolOutputFaults = new ToolOutputFaults(join(config.storeDir, 'tool-output'));
  const diagnostics: string[] = [];
  const ptyOverlay = new KitPtyOverlay();
  const runtime = new SessionRuntime({
    toolOutput: {
      directory: join(config.storeDir, 'tool-output'),
      onFileWritten: () => {
        crashes?.toolOutputWritten();
        return toolOutputFaults.afterWrite();
      },
    },
    diagnostics: (message) => {
      diagnostics.push(message);
      if (echoDiagnostics) process.stderr.write(`${message}\n`);
    },
    databaseFile,
    provider: config.provider,
    tools: neutral ? [] : kitTools(gates),
    clock,
    ids: sequentialIds(config.instance),
    globalConfigDir: config.home,
    profile,
    hostEnv: () => hostEnv,
  });
  const faults = new WriteFaults(databaseFile);
  const subscriptions = new Map<string, { buffer: StoredEvent[]; stop: () => void }>();
  const registry = (c: Command) => runtime.contexts.registry(...contributionLocation(c));

  const commands: Record<string, (c: Command) => unknown> = {
    'session.create': (c) => {
      const { session, created } = runtime.createSession({
        id: opt(c.id),
        location: String(c.location),
        projectRoot: opt(c.projectRoot),
      });
      return { sessionId: session.id, created };
    },
    'prompt.admit': (c) => {
      const receipt = runtime.prompt({
        sessionId: String(c.sessionId),
        id: opt(c.id),
        prompt: c.prompt as never,
        delivery: c.delivery as never,
        resume: c.resume as boolean | undefined,
      });
      return { messageId: receipt.messageId, state: receipt.state, duplicate: receipt.duplicate };
    },
    // Only the inbox-free entry of profile sol; otherwise prompts go through the durable inbox.
    ...(profile.offersInboxFreePrompts()
      ? {
          'prompt.submit': (c: Command) => ({
            messageId: runtime.promptWhenIdle({
              sessionId: String(c.sessionId),
              id: opt(c.id),
              prompt: c.prompt as never,
            }).messageId,
          }),
        }
      : {}),
    'retry.wait': async (c) => {
      const { retry, delayMs, at, reason } = await runtime.retries.whenScheduled(String(c.sessionId), Number(c.retry));
      return { retry, delayMs, at: at.toISOString(), reason };
    },
    'session.run': (c) => void runtime.run(String(c.sessionId)),
    'session.wake': (c) => runtime.wake(String(c.sessionId)),
    'session.interrupt': (c) => runtime.interrupt(String(c.sessionId)),
    'session.idle': (c) => runtime.idle(String(c.sessionId)),
    'session.move': (c) => runtime.move(String(c.sessionId), String(c.location), opt(c.projectRoot)),
    'session.select': (c) =>
      runtime.select(String(c.sessionId), {
        ...('agent' in c ? { agent: c.agent as string | null } : {}),
        ...('model' in c ? { model: c.model as string | null } : {}),
      }),
    epoch: (c) => {
      const epoch = runtime.epoch(String(c.sessionId));
      return { baseline: epoch?.baseline ?? null, snapshot: epoch?.snapshot ?? {} };
    },
    'context.contributor.register': (c) => {
      const sources = c.sources as { key: string; removable?: boolean; latency?: number }[];
      registry(c).register(String(c.contributor), () =>
        sources.map((s) => kitSources.source(s.key, s.removable ?? false, s.latency ?? 0)),
      );
    },
    'context.contributor.remove': (c) => {
      if (!registry(c).remove(String(c.contributor)))
        throw new RuntimeError('not-found', `no contributor ${c.contributor}`);
    },
    'context.source.set': (c) =>
      kitSources.set(
        String(c.key),
        'value' in c ? { value: c.value as Json } : { state: c.state as 'unavailable' | 'absent' },
        'nextValue' in c ? { value: c.nextValue as Json } : undefined,
      ),
    'agent.define': (c) =>
      runtime.agents.defineAgent({
        name: String(c.name),
        tools: (c.tools ?? {}) as Record<string, ToolPermission>,
        skills: (c.skills ?? {}) as Record<string, 'allow' | 'deny'>,
      }),
    'skill.define': (c) =>
      runtime.agents.defineSkill({
        name: String(c.name),
        description: String(c.description),
        body: String(c.body),
        ...(c.location === undefined ? {} : { location: String(c.location) }),
      }),
    'permission.wait': (c) => runtime.permissions.whenPending(String(c.sessionId)),
    'permission.pending': (c) => ({
      requests: runtime.permissions.pending(String(c.sessionId)).map(({ id, tool, agent }) => ({ id, tool, agent })),
    }),
    'permission.reply': (c) => {
      if (!runtime.permissions.reply(String(c.id), Boolean(c.approve))) {
        throw new RuntimeError('not-found', `no pending permission request ${c.id}`);
      }
    },
    'host.env.set': (c) => {
      hostEnv[String(c.name)] = c.value === null ? undefined : String(c.value);
    },
    'compaction.configure': (c) =>
      runtime.configureCompaction({
        contextWindow: Number(c.contextWindow),
        outputAllowance: Number(c.outputAllowance),
        buffer: Number(c.buffer),
        ...(c.modelWindows ? { modelWindows: c.modelWindows as Record<string, number> } : {}),
        ...(typeof c.auto === 'boolean' ? { auto: c.auto } : {}),
        ...(typeof c.prune === 'boolean' ? { prune: c.prune } : {}),
      }),
    'compaction.request': (c) => runtime.requestCompaction(String(c.sessionId)),
    compactions: (c) => ({
      compactions: runtime.compactions(String(c.sessionId)).map(({ status, summary, tokensFreed }) => ({
        status,
        ...(summary === undefined ? {} : { summary }),
        ...(tokensFreed === undefined ? {} : { tokensFreed }),
      })),
    }),
    'context.reconcile': async (c) => ({ outcome: await runtime.previewContext(String(c.sessionId)) }),
    'fault.system-message-writes': (c) => faults.failSystemMessages(Boolean(c.failing)),
    ...(crashes
      ? { 'fault.crash': (c: Command) => crashes.arm(runtime, String(c.sessionId), c.after as CrashPoint) }
      : {}),
    'clock.set': async (c) => {
      clock.set(new Date(String(c.now)));
      // The runtime's periodic retention sweep; with a virtual clock, time passes only here.
      await runtime.sweepToolOutput();
    },
    'tool-output.configure': (c) =>
      runtime.configureToolOutput({ maxLines: Number(c.maxLines), maxBytes: Number(c.maxBytes) }),
    'tool-output.files': async () => {
      const directory = runtime.toolOutputDirectory;
      const names = await readdir(directory).catch(() => []);
      return { directory, files: names.sort().map((name) => join(directory, name)) };
    },
    'tool-output.held': () => toolOutputFaults.whenHeld(),
    'fault.tool-output-writes': (c) => toolOutputFaults.set(c.mode as ToolOutputWriteMode),
    diagnostics: () => ({ diagnostics }),
    'pty.overlay.set': (c) => ptyOverlay.set(String(c.location), c.env as Environment),
    'pty.environment': (c) =>
      ptyEnvironment(
        { location: String(c.location), cwd: opt(c.cwd), env: c.env as Environment },
        c.server === 'standalone' ? standaloneOverlay : ptyOverlay,
      ),
    'gate.wait': (c) => gates.blocked(String(c.name)),
    'gate.open': (c) => gates.open(String(c.name)),
    history: (c) => ({ messages: runtime.messages(String(c.sessionId)).map(toKitMessage) }),
    inbox: (c) => ({
      rows: runtime.inboxRows(String(c.sessionId)).map((row) => ({
        messageId: row.messageId,
        text: promptText(row.prompt),
        delivery: row.delivery,
        state: row.promotedSeq === null ? 'pending' : 'promoted',
        admittedSeq: row.admittedSeq,
        promotedSeq: row.promotedSeq,
      })),
    }),
    events: (c) => ({ events: runtime.events(String(c.sessionId), Number(c.after ?? 0)).map(toKitEvent) }),
    failures: (c) => ({
      failures: runtime
        .events(String(c.sessionId))
        .flatMap(({ event }) =>
          event.type === 'session.failed' ? [{ code: event.code, message: event.message }] : [],
        ),
    }),
    'events.subscribe': (c) => {
      const id = `sub_${subscriptions.size + 1}`;
      const buffer: StoredEvent[] = [];
      const stop = runtime.tail(String(c.sessionId), Number(c.after ?? 0), (event) => buffer.push(event));
      subscriptions.set(id, { buffer, stop });
      return { subscription: id };
    },
    'events.take': (c) => {
      const subscription = subscriptions.get(String(c.subscription));
      if (!subscription) throw new RuntimeError('not-found', `no subscription ${c.subscription}`);
      return { events: subscription.buffer.splice(0).map(toKitEvent) };
    },
  };

  return {
    async handle(command) {
      const run = commands[command.cmd];
      if (!run) return failure('unsupported', `unknown command ${command.cmd}`);
      if (refused.has(command.cmd)) return failure('unsupported', `${command.cmd} is not offered in neutral mode`);
      try {
        return { ok: true, result: (await run(command)) ?? {} };
      } catch (error) {
        if (error instanceof RuntimeError) return failure(error.code, error.message);
        throw error;
      }
    },
    terminate() {
      for (const subscription of subscriptions.values()) subscription.stop();
      faults.close();
      runtime.terminate();
    },
  };
}

/** Kit contributors are registered for a location, as the registry is location-scoped. */
function contributionLocation(c: Command): [string, string] {
  const location = String(c.location);
  return [location, opt(c.projectRoot) ?? location];
}

function opt(value: unknown): string | undefined {
  return value === undefined || value === null ? undefined : String(value);
}

function sequentialIds(instance: number): IdSource {
  let counter = 0;
  return { next: (prefix) => `${prefix}_${instance}_${String(++counter).padStart(4, '0')}` };
}

function toKitEvent(stored: StoredEvent) {
  return { seq: stored.seq, type: stored.event.type, at: stored.at };
}

function toKitMessage(message: SessionMessage) {
  const base = { id: message.id, seq: message.seq, role: message.role, hidden: message.hidden };
  switch (message.role) {
    case 'user':
      return {
        ...base,
        text: promptText(message.prompt),
        ...(message.continuation ? { continuation: true } : {}),
        ...(message.continuationOfMedia ? { continuationOfMedia: true } : {}),
      };
    case 'assistant':
      return { ...base, status: message.status, text: message.text, toolCalls: message.toolCalls };
    case 'system':
      return { ...base, text: message.text, sourceKeys: message.keys };
    case 'compaction':
      return { ...base, text: message.summary };
    case 'tool':
      return {
        ...base,
        status: message.status,
        assistantMessageId: message.assistantMessageId,
        callId: message.callId,
        name: message.name,
        output: message.output ?? null,
        ...(message.structured === undefined ? {} : { structured: message.structured }),
        ...(message.outputPath === undefined ? {} : { outputPath: message.outputPath }),
        ...(message.pruned ? { pruned: true } : {}),
      };
  }
}
