import { markProjectRootFile } from '../../harness/adapter/project-root.mjs';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { EmulatedAnswer, PROTOCOL, Refusal, serveStdio } from '../../harness/adapter/stdio-serve.mjs';
import { SessionRecords } from '../../harness/adapter/session-records.mjs';
import { storeReads } from '../../harness/adapter/store-reads.mjs';
import { writeSkill } from '../../harness/adapter/skill-files.mjs';
import { permissionCommands } from '../../harness/adapter/acp-client.mjs';
import { AcpProcess } from './acp-process.mjs';
import {
  findChatFile,
  readRecords,
  resumable,
  toKitCompactions,
  toKitEvents,
  toKitFailures,
  toKitHistory,
} from './chat-file.mjs';
import { geminiSettings } from './settings.mjs';
import { pinnedVersion, withHostVariables } from '../../harness/adapter/runtime-package.mjs';
import { CALLER_IDS, heldPromptCommands, heldReceipt } from '../../harness/adapter/held-prompts.mjs';

/**
 * A `session-runtime-adapter/1` adapter driving the published Gemini CLI (`@google/gemini-cli`)
 * through its Agent Client Protocol interface: one `gemini --acp` process per opened runtime,
 * serving every session (`session/new` in the session's location, `session/load` after a
 * restart), with each session's chat file as the durable store. Newline-delimited JSON on stdin
 * and stdout; everything else goes to stderr.
 */

const VERSION = pinnedVersion(import.meta.url, '@google/gemini-cli');

const diagnostics = [];
let config;
/** The kit's sessions, each with the runtime's session ID. */
let records;
/** Per kit session: the opening of its ACP session in the runtime's process, and the prompts held. */
const live = new Map();
const subscriptions = new Map();
let settings = {};

const DEFAULT_AGENT = 'build';

/** What this adapter computes itself because Gemini CLI has no such notion. */
const EMULATED = {
  'session.create':
    'the adapter keeps kit session IDs and locations in kit-sessions.json, each mapped to the UUID session/new gave',
  'prompt.admit.held':
    "a prompt admitted with resume false is held in the adapter's memory until session.run or session.wake: Gemini CLI has no admit-without-run",
  'prompt.admit.receipt': "the receipt echoes the kit's ID: Gemini CLI keeps no message IDs of the caller",
  'prompt.admit.id': "a prompt's message ID is the adapter's note of it: Gemini CLI keeps no message IDs of the caller",
  'prompt.admit.queued':
    "a prompt queued while a turn runs waits in the adapter's memory and is sent as the next session/prompt once that turn is answered: over ACP a prompt sent while a turn runs aborts that turn and runs in its place, and Gemini CLI's own queue is in its interactive UI",
  'prompt.admit.steered':
    "a prompt steered while a turn runs waits in the adapter's memory and is sent as the next session/prompt once that turn is answered: over ACP a prompt sent while a turn runs aborts that turn and runs in its place, and Gemini CLI's own steering (experimental.modelSteering) is in its interactive UI",
  'session.run': 'submits the held prompts and nothing else: Gemini CLI has no way to go on without new input',
  'session.wake': 'submits the held prompts and nothing else: Gemini CLI starts no work when a session opens',
  'session.idle': 'every session/prompt request the adapter sent has its response',
  events: "the chat file's lines, numbered by their position in the file",
  'events.subscribe': 'a cursor the adapter keeps over the chat file',
  'events.take': 'reads the chat file after the cursor the adapter keeps',
  'compaction.configure.reserve':
    "the compression threshold given to Gemini CLI (model.compressionThreshold) is the adapter's arithmetic: the window less the greater of the output allowance and the buffer, over Gemini CLI's own window; Gemini CLI has no output allowance or buffer of its own to compact by",
};

/** What of EMULATED, and of the commands it answers unsupported, Gemini CLI has no interface for at all. */
const ABSENT = [
  'prompt.admit.held',
  'prompt.admit.receipt',
  'prompt.admit.id',
  'session.run',
  'session.wake',
  'epoch',
  'session.move',
];

/** Commands Gemini CLI has no equivalent for, and why (adapters/gemini-cli/README.md says more). */
const UNSUPPORTED = {
  inbox:
    'Gemini CLI keeps no inbox: over ACP a prompt sent while another runs cancels it, and its interactive queue is not durable',
  epoch: 'Gemini CLI keeps no context epoch: the system prompt is rebuilt whenever a session is opened',
  'agent.define':
    'Gemini CLI has no named agent a session runs as: its agents are subagents the model calls through invoke_agent; the nearest, its approval modes (session/set_mode) with policy rules scoped to a mode, is not wired',
  'session.move': "Gemini CLI files a session's chat under its project directory; it has no move",
};

async function hello(c) {
  if (c.provider.dialect !== 'gemini') throw new Refusal('unsupported', 'Gemini CLI speaks the Gemini API only');
  config = c;
  mkdirSync(c.home, { recursive: true });
  records = new SessionRecords(c.storeDir);
  const settingsFile = join(c.storeDir, 'kit-settings.json');
  settings = existsSync(settingsFile) ? JSON.parse(readFileSync(settingsFile, 'utf8')) : {};
  // A restart: the new process reopens every session an earlier one opened, as a client reopens
  // its sessions after the agent's process died, so what its session/load leaves of each chat
  // file is what the next read shows (Restarts and `session/load`, README.md).
  for (const [sessionId, found] of Object.entries(records.all)) if (found.uuid) await open(sessionId);
  return {
    protocol: PROTOCOL,
    runtime: { name: 'gemini-cli', version: VERSION, language: 'typescript' },
    profiles: ['core'],
    capabilities: ['restart', 'process-reuse', 'host-env'],
    // Its shell runs commands in a pseudo-terminal under ACP (node-pty, `executeWithPty`).
    shell: { tool: 'run_shell_command', commandField: 'command', workdirField: 'dir_path', terminal: true },
    // Its file reader (read_file, GEMINI_3_SET in chunk-JDPZ4CE3.js), which resolves a relative path against the session's directory
    // and takes a range of lines as a 1-based `start_line` and an inclusive `end_line`.
    read: { tool: 'read_file', pathField: 'file_path', lines: { offsetField: 'start_line', endField: 'end_line' } },
    texts: {
      // Gemini CLI opens every chat with its environment context, a user turn of its own.
      'system-message.fallback': '<session_context>\n{text}\n</session_context>',
      // A compression's summary is kept as a state snapshot.
      'compaction.summary-form': '<state_snapshot>\n{summary}\n</state_snapshot>',
      // and checked by a second request, whose answer replaces it (`ChatCompressionService.compress`, chunk-JDPZ4CE3.js).
      'compaction.summary-check': 'Critically evaluate the <state_snapshot> you just generated.',
    },
    emulated: EMULATED,
    absent: ABSENT,
    // Gemini CLI's system instruction and tool declarations weigh about 12,200 tokens of every request.
    limits: { requestOverheadTokens: 12_500 },
  };
}

const record = (sessionId) => records.get(sessionId);
const saveRecords = () => records.save();

/** Gemini CLI's global directory, `$GEMINI_CLI_HOME/.gemini`: a link to the kit's home. */
const runtimeDir = () => config.home;

/** The process's environment: `home` holds its `.gemini`, and the provider is the hello's where known. */
function environment(home, provider) {
  const env = { ...process.env };
  for (const key of Object.keys(env))
    if (/^(OPENAI|QWEN|DASHSCOPE|ANTHROPIC|GEMINI|GOOGLE|CLOUD_SDK|VERTEX)_/.test(key)) delete env[key];
  // The kit's host.env.set: Gemini CLI reads its environment when its process starts.
  return withHostVariables(
    {
      ...env,
      HOME: home,
      GEMINI_CLI_HOME: home,
      TMPDIR: join(home, 'tmp'),
      ...(provider && { GOOGLE_GEMINI_BASE_URL: gatewayUrl(provider), GEMINI_API_KEY: provider.apiKey }),
      TZ: (provider && config.timeZone) || 'UTC',
      GEMINI_CLI_NO_RELAUNCH: 'true',
      NO_COLOR: '1',
    },
    provider ? settings.hostEnv : undefined,
  );
}

/** The kit's provider as Gemini CLI's gateway: its base URL without `/v1` (the Gemini SDK adds `/v1beta`). */
const gatewayUrl = (provider) => provider.baseUrl.replace(/\/v1\/?$/, '');

/**
 * Starting `gemini --acp` costs about a second of CPU (compiling and loading its bundle), more
 * than the turns of most scenarios together, so one process serves runtime after runtime
 * (`process-reuse`), the kit told to keep it. It is started at runtime.close over a home of its
 * own in the run's directory, with no settings, host variables or provider of a scenario (the time
 * zone UTC, the kit's model). A hello takes it when it asks for what it was started with: its
 * home's `.gemini` link is pointed at the kit's home, and the provider reaches it through ACP's
 * `authenticate` (the gateway's base URL and key). Each session it opens reads its settings,
 * instruction files, skills, policies and chat anew from the home the link names and from its
 * location (`AcpSessionManager.newSession`: `loadSettings(cwd)`, then `loadCliConfig`).
 *
 * At runtime.close such a process is kept (`keepWarm`): the sessions still running are
 * cancelled and waited for, then its link is pointed at an empty home of its own and its
 * temporary directory emptied, so the next runtime reaches nothing of this one: Gemini CLI never
 * hears the earlier sessions' IDs again (random UUIDs it chose). A process that served a runtime
 * with settings or host variables of its own from its start (a restart, a budget configured
 * while a session was open, `host.env.set`) is stopped instead and a new one started, and so is one
 * that has opened WARM_SESSIONS sessions: Gemini CLI keeps every session it opened in memory,
 * each with listeners on its process-wide events (`GeminiClient`'s `coreEvents.on`).
 */
let spare;
let spares = 0;

function startSpare(runDir) {
  const home = join(runDir, 'gemini-spare', `home-${process.pid}-${++spares}`);
  const idle = join(home, 'idle');
  mkdirSync(join(home, 'tmp'), { recursive: true });
  writeSettings(idle, {});
  symlinkSync(idle, join(home, '.gemini'));
  const child = new AcpProcess({
    cwd: home,
    env: environment(home),
    args: ['--model', SPARE_MODEL],
    onDiagnostic: (line) => diagnostics.push(line),
  });
  child.spareHome = home;
  const ready = child.initialize().then(() => child);
  ready.catch(() => {});
  spare = { child, home, ready };
  return child.child.pid;
}

/** Sessions a kept process opens at most before a new one is started in its place. */
const WARM_SESSIONS = 8;

/**
 * The process kept for the next hello, its ID; undefined when none is: the runtime's process did
 * not start as a spare, has exited, has opened WARM_SESSIONS sessions, or its sessions did not end
 * when cancelled. A spare this runtime never took is kept as it is.
 */
async function keepWarm() {
  const child = gemini;
  if (!child) return spare && !spare.child.exited ? spare.child.child.pid : undefined;
  if (!child.spareHome || child.exited || child.sessionsOpened >= WARM_SESSIONS) return undefined;
  const ready = await started.then(
    () => true,
    () => false,
  );
  if (!ready) return undefined;
  for (const uuid of [...child.prompts.keys()]) child.cancel(uuid);
  const settled = await Promise.race([child.idle().then(() => true), delay(CANCEL_GRACE_MS, false)]);
  if (!settled || child.exited) return undefined;
  gemini = undefined;
  for (const state of live.values()) state.opened = undefined;
  const home = child.spareHome;
  const idle = join(home, `idle-${++spares}`);
  writeSettings(idle, {});
  const link = join(home, '.gemini');
  rmSync(link);
  symlinkSync(idle, link);
  rmSync(join(home, 'tmp'), { recursive: true, force: true });
  mkdirSync(join(home, 'tmp'));
  spare = { child, home, ready: Promise.resolve(child) };
  return child.child.pid;
}

/** How long a cancelled session may take to end before its process is stopped instead of kept. */
const CANCEL_GRACE_MS = 3_000;

const delay = (ms, value) => new Promise((resolve) => setTimeout(resolve, ms, value));

/** The model the kit names in every hello; a hello naming another starts a process of its own. */
const SPARE_MODEL = 'kit-model';

/**
 * Where the scenario's processes keep Gemini CLI's home, noted at the first: Gemini CLI writes paths
 * below its home into the system instruction (its private memory's), so a process started later,
 * after a restart, runs in the same home as the spare that served the scenario first, or the
 * restart alone would change the baseline.
 */
const homeNote = () => join(config.storeDir, 'gemini-home-path');

/** The runtime's `gemini --acp` process, started on first use, and its `initialize` answered. */
let gemini;
let started;

function geminiProcess() {
  if (gemini && !gemini.exited) return started;
  // Settings are read when the process starts: every session is opened again in a new one.
  for (const state of live.values()) state.opened = undefined;
  writeSettings(runtimeDir(), settings);
  const fits =
    spare &&
    !spare.child.exited &&
    // A session it loads would read the settings it started with (`loadSession`), so it serves
    // only a runtime with none to load, and no host variables of its own.
    !Object.values(records.all).some((found) => found.uuid) &&
    settings.hostEnv === undefined &&
    !settings.minutesAhead &&
    (config.timeZone ?? 'UTC') === 'UTC' &&
    config.provider.model === SPARE_MODEL;
  let child;
  let ready;
  const home = runtimeDir();
  if (fits) {
    ({ child } = spare);
    // The spare's home is the kit's from now on, once it has read its own settings (at its start,
    // before it answers `initialize`): what it holds of them is the idle home's, never a scenario's.
    const link = join(spare.home, '.gemini');
    if (!existsSync(homeNote())) writeFileSync(homeNote(), spare.home);
    ready = spare.ready.then(() => {
      rmSync(link);
      symlinkSync(home, link);
    });
  } else {
    // A spare kept in this home would share it: it goes first.
    spare?.child.kill();
    const own = existsSync(homeNote()) ? readFileSync(homeNote(), 'utf8') : join(config.storeDir, 'gemini-home');
    if (!existsSync(homeNote())) writeFileSync(homeNote(), own);
    mkdirSync(join(own, 'tmp'), { recursive: true });
    rmSync(join(own, '.gemini'), { force: true });
    symlinkSync(home, join(own, '.gemini'));
    child = new AcpProcess({
      cwd: own,
      env: environment(own, config.provider),
      args: ['--model', config.provider.model],
      onDiagnostic: (line) => diagnostics.push(line),
      minutesAhead: settings.minutesAhead,
    });
    ready = child.initialize();
  }
  spare = undefined;
  gemini = child;
  started = ready
    .then(() =>
      child.request('authenticate', {
        methodId: 'gateway',
        _meta: { 'api-key': config.provider.apiKey, gateway: { baseUrl: gatewayUrl(config.provider) } },
      }),
    )
    .then(() => {
      // `authenticate` saves the user settings Gemini CLI read at its start, with the method chosen,
      // over settings.json (`GeminiAgent.authenticate`: `settings.setValue`, whose save drops every key
      // its own copy lacks): the kit's settings, configured since, are written again before a session reads them.
      if (config && runtimeDir() === home) writeSettings(home, settings);
      return child;
    });
  return started;
}

/** The session's live state, its ACP session opened in its location: loaded from its chat file, or new. */
async function open(sessionId) {
  const found = record(sessionId);
  const child = await geminiProcess();
  let state = live.get(sessionId);
  if (!state) {
    state = { held: [], waiting: [], opened: undefined };
    live.set(sessionId, state);
  }
  state.opened ??= (async () => {
    // Gemini CLI loads no chat with nothing resumable in it (no prompt yet): such a session is opened anew.
    const chat = found.uuid && findChatFile(runtimeDir(), found.uuid);
    const uuid = await child.openSession({
      sessionId: chat && resumable(readRecords(chat)) ? found.uuid : undefined,
      cwd: found.location,
      onLost: (error) =>
        diagnostics.push(
          `session/load ${found.uuid} refused (${error.message}): its chat file holds no prompt any more; opened anew`,
        ),
    });
    if (uuid !== found.uuid) {
      found.uuid = uuid;
      saveRecords();
    }
    if (found.model) await child.request('session/set_model', { sessionId: uuid, modelId: found.model });
  })();
  await state.opened;
  return state;
}

/** Gemini CLI's settings in `dir` and the policy that lets the shell run without asking (redirections too). */
function writeSettings(dir, kit) {
  mkdirSync(join(dir, 'policies'), { recursive: true });
  writeFileSync(join(dir, 'settings.json'), JSON.stringify(geminiSettings(kit), null, 2));
  writeFileSync(join(dir, 'policies', 'kit-build-agent.toml'), SHELL_POLICY);
}

/**
 * The kit's default agent, `build`, lets the shell run without asking: a user policy rule
 * allowing `run_shell_command`, redirections included (Gemini CLI otherwise asks before a command
 * that redirects, whatever `tools.allowed` says).
 */
const SHELL_POLICY = `[[rule]]
toolName = "run_shell_command"
decision = "allow"
priority = 900
allowRedirection = true
`;

function promptParts(prompt) {
  return prompt.parts.map((part) =>
    part.type === 'text'
      ? { type: 'text', text: part.text }
      : { type: 'image', mimeType: part.mimeType, data: part.data },
  );
}

/**
 * Sends one prompt, and once it is answered the next prompt admitted while it ran: Gemini CLI would
 * abort a running prompt for one sent beside it. The next is sent as the answer arrives, so the
 * session is never idle between the two.
 */
function send(sessionId, parts) {
  const state = live.get(sessionId);
  const sendNext = () => {
    const next = state?.waiting.shift();
    if (next) send(sessionId, next);
  };
  // Handled on the answer itself, before the client counts the prompt as ended.
  gemini.prompt(record(sessionId).uuid, parts).then(sendNext, (error) => {
    diagnostics.push(`session/prompt: ${error.message}`);
    sendNext();
  });
}

let admitted = 0;

async function admit(c) {
  if (c.delivery !== undefined && c.delivery !== 'steer' && c.delivery !== 'queue') {
    throw new Refusal('invalid-input', `delivery must be steer or queue, not ${JSON.stringify(c.delivery)}`);
  }
  const state = await open(c.sessionId);
  const messageId = c.id ?? `prompt_${config.instance}_${++admitted}`;
  const parts = promptParts(c.prompt);
  if (c.resume === false && !gemini.isBusy(record(c.sessionId).uuid)) {
    state.held.push(parts);
    return heldReceipt(messageId);
  }
  if (gemini.isBusy(record(c.sessionId).uuid)) {
    state.waiting.push(parts);
    return new EmulatedAnswer({ messageId, state: 'pending', duplicate: false }, [
      c.delivery === 'queue' ? 'prompt.admit.queued' : 'prompt.admit.steered',
      ...CALLER_IDS,
    ]);
  }
  send(c.sessionId, parts);
  return new EmulatedAnswer({ messageId, state: 'promoted', duplicate: false }, CALLER_IDS);
}

async function submitHeld(sessionId) {
  const state = live.get(sessionId);
  if (!state?.held.length) return;
  await open(sessionId);
  // One after another, each once the one before is answered.
  state.waiting.push(...state.held.splice(0));
  if (!gemini.isBusy(record(sessionId).uuid)) send(sessionId, state.waiting.shift());
}

async function idle(sessionId) {
  if (live.has(sessionId)) await gemini?.idle(record(sessionId).uuid);
}

const entries = (sessionId) => readRecords(findChatFile(runtimeDir(), record(sessionId).uuid));

const commands = {
  // The ACP session is opened on first use: settings written before then need no restart
  // (session/new reads them again). The process starts now, as it takes seconds.
  'session.create': (c) => {
    markProjectRootFile(c.projectRoot);
    const created = records.create(c, config.instance, () => ({}));
    geminiProcess().catch(() => {});
    return created;
  },
  'prompt.admit': admit,
  ...heldPromptCommands({ known: record, submitHeld }),
  'session.idle': async (c) => {
    record(c.sessionId);
    await idle(c.sessionId);
  },
  // An idle or unknown session has nothing to interrupt.
  'session.interrupt': async (c) => {
    const uuid = records.all[c.sessionId]?.uuid;
    if (!uuid || !gemini?.isBusy(uuid)) return;
    // What waited behind the cancelled prompt stays for a later run or wake, as held prompts do.
    const state = live.get(c.sessionId);
    if (state) state.held.push(...state.waiting.splice(0));
    gemini.cancel(uuid);
    await gemini.idle(uuid);
  },
  'session.select': async (c) => {
    if (typeof c.agent === 'string') throw new Refusal('unsupported', UNSUPPORTED['agent.define']);
    if (c.model === undefined) return;
    const found = record(c.sessionId);
    found.model = c.model ?? undefined;
    saveRecords();
    if (live.get(c.sessionId)?.opened && gemini && !gemini.exited)
      await gemini.request('session/set_model', {
        sessionId: found.uuid,
        modelId: c.model ?? config.provider.model,
      });
  },
  // Gemini CLI asks its client about each call its policy leaves to the user (session/request_permission).
  ...permissionCommands({
    known: record,
    clientOf: () => gemini,
    clients: () => [gemini],
    agent: DEFAULT_AGENT,
  }),
  'compaction.configure': async (c) => {
    // One compression threshold for every model, over one window for every model the kit names
    // (tokenLimit knows none of them): a window per model cannot be set.
    if (c.modelWindows && Object.keys(c.modelWindows).length > 0)
      throw new Refusal(
        'unsupported',
        'absent in 0.61.0: a context window per model (model.compressionThreshold is one share for every model, and tokenLimit gives every model the kit names the same window)',
      );
    settings.compaction = c;
    await restart();
  },
  'tool-output.configure': async (c) => {
    settings.toolOutput = c;
    await restart();
  },
  'host.env.set': async (c) => {
    // A switch another runtime reads would change nothing here: refused as absent, not kept.
    if (c.name === 'OPENCODE_DISABLE_PROJECT_CONFIG')
      throw new Refusal(
        'unsupported',
        `absent in 0.61.0: Gemini CLI reads no ${c.name}; its nearest, an untrusted folder (projectMemory left empty when !isTrustedFolder()), also turns off the folder's settings and tools`,
      );
    settings.hostEnv = { ...settings.hostEnv, [c.name]: c.value };
    await restart({ environment: true });
  },
  ...storeReads({
    recordsOf: entries,
    project: { history: toKitHistory, failures: toKitFailures, compactions: toKitCompactions, events: toKitEvents },
    known: record,
    subscriptions,
  }),
  diagnostics: () => ({ diagnostics }),
  'skill.define': defineSkill,
  // Gemini CLI saves the complete output of a truncated result under its project's temporary
  // directory, `<home>/.gemini/tmp/<project>/tool-outputs/session-<id>/`.
  'tool-output.files': () => {
    const tmp = join(runtimeDir(), 'tmp');
    const files = [];
    const walk = (dir) => {
      for (const entry of existsSync(dir) ? readdirSync(dir, { withFileTypes: true }) : []) {
        const path = join(dir, entry.name);
        if (entry.isDirectory()) walk(path);
        else files.push(path);
      }
    };
    const directories = existsSync(tmp)
      ? readdirSync(tmp)
          .map((project) => join(tmp, project, 'tool-outputs'))
          .filter((dir) => existsSync(dir))
      : [];
    for (const dir of directories) walk(dir);
    return { directory: directories[0] ?? join(tmp, 'tool-outputs'), files: files.sort() };
  },
  'runtime.close': async () => {
    let kept = await keepWarm();
    if (kept === undefined) {
      await stop();
      kept = startSpare(config.runDir);
    }
    diagnostics.length = 0;
    live.clear();
    subscriptions.clear();
    config = undefined;
    return { kept: [kept] };
  },
};

/**
 * A user skill of Gemini CLI under `<home>/.gemini/skills` (`Storage.getUserSkillsDir`), read when
 * a session's configuration is loaded (session/new, session/load).
 */
function defineSkill(c) {
  writeSkill(join(config.home, 'skills'), c, 'Gemini CLI');
}

async function stop() {
  await gemini?.stop();
  gemini = undefined;
  for (const state of live.values()) state.opened = undefined;
}

/** Settings are read when the process starts and when a session is new: a configured budget restarts an open session's process, sessions reloaded on use. */
async function restart({ environment = false } = {}) {
  const saveSettings = () => writeFileSync(join(config.storeDir, 'kit-settings.json'), JSON.stringify(settings));
  saveSettings();
  // `session/new` reads the settings again: while no session is open, writing them is enough.
  if (!environment && ![...live.values()].some((state) => state.opened)) {
    writeSettings(runtimeDir(), settings);
    return;
  }
  for (const id of live.keys()) await idle(id);
  // A user would start Gemini CLI again later than the adapter does: its clock is moved a minute
  // ahead, so that the load files its fresh recording apart from the chat it loads. The clock stays
  // ahead for every later process of the runtime, which never sees time go back.
  settings.minutesAhead = (settings.minutesAhead ?? 0) + 1;
  saveSettings();
  const opened = [...live].flatMap(([id, state]) => (state.opened ? [id] : []));
  await stop();
  // Reopened at once, as after the kit's own restart: what session/load leaves of each chat file
  // is what the next read shows, not only once the next prompt reopens it.
  for (const id of opened) await open(id);
}

serveStdio({
  runtime: 'Gemini CLI',
  hello,
  commands,
  unsupported: UNSUPPORTED,
  end: stop,
  endNow: () => {
    spare?.child.kill();
    gemini?.kill();
  },
});
