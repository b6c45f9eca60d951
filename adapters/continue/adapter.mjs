import { existsSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { SessionRecords } from '../../harness/adapter/session-records.mjs';
import { writeSkill } from '../../harness/adapter/skill-files.mjs';
import { EmulatedAnswer, PROTOCOL, Refusal, serveStdio } from '../../harness/adapter/stdio-serve.mjs';
import { storeReads } from '../../harness/adapter/store-reads.mjs';
import { continueConfig, dialectSupported } from './config.mjs';
import { ServeProcess } from './serve-process.mjs';
import { readItems, sessionFile, toKitCompactions, toKitEvents, toKitFailures, toKitHistory } from './session-file.mjs';

/**
 * A `session-runtime-adapter/1` adapter driving the published Continue CLI (`@continuedev/cli`)
 * through its HTTP server, `cn serve`: one process per kit session (a server serves the one
 * session its `--id` names), in the session's location, with the session file Continue rewrites
 * on every change as the durable store. Newline-delimited JSON on stdin and stdout; everything
 * else goes to stderr.
 */

const VERSION = JSON.parse(
  readFileSync(new URL('./node_modules/@continuedev/cli/package.json', import.meta.url), 'utf8'),
).version;

/** What this adapter computes itself because Continue has no such notion. */
const EMULATED = {
  'prompt.admit.held':
    "a prompt admitted with resume false is held in the adapter's memory until session.run or session.wake: POST /message runs or queues every message at once",
  'prompt.admit.receipt': "the receipt echoes the kit's ID: Continue keeps no message IDs of the caller",
  'prompt.admit.id': "a prompt's message ID is the adapter's note of it: Continue keeps no message IDs of the caller",
  'session.run': 'posts the held prompts and nothing else: Continue has no way to go on without new input',
  'session.wake': 'posts the held prompts and nothing else: Continue starts no work when a session opens',
  events: "the session file's history items, numbered by their position, at the file's last write",
  'events.subscribe': 'a cursor the adapter keeps over the session file',
  'events.take': 'reads the session file after the cursor the adapter keeps',
  'compaction.configure.reserve':
    "the contextLength and maxTokens given to Continue are the adapter's arithmetic: the pair that puts Continue's threshold (window less allowance less its own buffer, added up: the larger of the allowance and a fifth of what it leaves, at most 15000) at the kit's window less the larger of allowance and buffer, neither below the kit's; Continue has no setting of a compaction buffer",
};

/** What of EMULATED, and of the commands it answers unsupported, Continue has no interface for at all. */
const ABSENT = ['prompt.admit.held', 'prompt.admit.receipt', 'prompt.admit.id', 'session.run', 'session.wake', 'epoch'];

/** Commands Continue has no equivalent for, and why (adapters/continue/README.md says more). */
const UNSUPPORTED = {
  inbox: `absent in ${VERSION}: Continue's message queue lives in the server's memory and GET /state tells only its length`,
  epoch: `absent in ${VERSION}: the system message is rebuilt for every model call and dropped when the session is saved`,
  'tool-output.files': `absent in ${VERSION}: Continue keeps no file of a bounded tool output, only its tail in the history`,
  'agent.define':
    'not wired: Continue runs one agent, whose tool policies (--allow, --exclude) could carry allow and deny; cn serve hides a tool whose policy is ask',
};

/**
 * Continue's tools that would stop the kit's turn or reach outside: Exit kills `cn serve`,
 * AskQuestion waits for an answer serve cannot give, Fetch goes to the network. The file tools,
 * which serve hides unless allowed, are allowed as the kit's default agent allows them.
 */
const TOOL_FLAGS = ['--allow', 'Write', '--allow', 'Edit', '--allow', 'MultiEdit'].concat(
  ...['Exit', 'AskQuestion', 'Fetch'].map((tool) => ['--exclude', tool]),
);

/** Variables of the kit's host environment that switch off what another runtime does: Continue reads none of them. */
const UNREAD_SWITCHES = new Set(['OPENCODE_DISABLE_PROJECT_CONFIG']);

const diagnostics = [];
const subscriptions = new Map();
let config;
let records;
let settings = {};
/** Per kit session: its `cn serve` process, the prompts held, the admissions on their way. */
const live = new Map();

const globalDir = () => config.home;
const settingsFile = () => join(config.storeDir, 'kit-settings.json');

async function hello(c) {
  if (!dialectSupported(c.provider.dialect))
    throw new Refusal('unsupported', 'Continue speaks the OpenAI chat and Anthropic messages APIs only');
  config = c;
  mkdirSync(join(c.home, 'rules'), { recursive: true });
  mkdirSync(join(c.storeDir, 'os-home'), { recursive: true });
  linkGlobalInstructions();
  records = new SessionRecords(c.storeDir);
  settings = existsSync(settingsFile()) ? JSON.parse(readFileSync(settingsFile(), 'utf8')) : {};
  // A restart: every session's server starts again now, as it takes seconds.
  for (const sessionId of Object.keys(records.all)) startSoon(sessionId);
  return {
    protocol: PROTOCOL,
    runtime: { name: 'continue', version: VERSION, language: 'typescript' },
    profiles: ['core', 'continuation'],
    capabilities: ['restart', 'host-env'],
    shell: { tool: 'Bash', commandField: 'command' },
    read: { tool: 'Read', pathField: 'filepath' },
    // Continue's skill tool: a skill's body by its name (src/tools/skills.ts).
    skill: { tool: 'Skills', nameField: 'skill_name' },
    texts: { 'prompt.default-delivery': 'queue' },
    emulated: EMULATED,
    absent: ABSENT,
    limits: {
      // Bash keeps the tail of its output: 1,000 lines, 50,000 characters (src/util/truncateOutput.ts).
      toolOutput: { maxLines: 1000, maxChars: 50_000 },
      // A compaction replaces the whole history with its summary (src/compaction.ts).
      recentContextTokens: 0,
      // Its system message and tool definitions weigh some 2,500 tokens of a request (characters / 4).
      requestOverheadTokens: 4_000,
    },
  };
}

/**
 * Continue reads global rules from `<global dir>/rules/**\/*.md` (`loadMarkdownRulesWithMetadata`,
 * src/systemMessage.ts) before every model call: the kit's global instruction file, `AGENTS.md` in
 * its home, which is Continue's global directory, is linked there. A link to a missing file is
 * skipped as Continue skips any file it cannot stat.
 */
function linkGlobalInstructions() {
  const link = join(config.home, 'rules', 'AGENTS.md');
  rmSync(link, { force: true });
  symlinkSync(join('..', 'AGENTS.md'), link);
}

function environment() {
  const env = { ...process.env };
  for (const key of Object.keys(env)) if (/^(OPENAI|ANTHROPIC|CONTINUE|OTEL)_/.test(key)) delete env[key];
  const hosted = {
    ...env,
    HOME: join(config.storeDir, 'os-home'),
    CONTINUE_GLOBAL_DIR: globalDir(),
    // No self-update (`UpdateService.checkAndAutoUpdate`), metrics, or control-plane calls that go
    // anywhere but a closed loopback port (`updateAgentMetadata`, `reportFailureTool`).
    CONTINUE_CLI_AUTO_UPDATED: 'true',
    CONTINUE_METRICS_ENABLED: '0',
    CONTINUE_API_BASE: 'http://127.0.0.1:9/',
    SHELL: '/bin/bash',
    TZ: config.timeZone ?? 'UTC',
    NO_COLOR: '1',
  };
  const limit = settings.toolOutput;
  if (limit) {
    // Continue counts characters, the kit bytes: the two agree on ASCII.
    hosted.CONTINUE_CLI_BASH_MAX_OUTPUT_LINES = String(limit.maxLines);
    hosted.CONTINUE_CLI_BASH_MAX_OUTPUT_CHARS = String(limit.maxBytes);
  }
  for (const [name, value] of Object.entries(settings.hostEnv ?? {}))
    if (value === null) delete hosted[name];
    else hosted[name] = value;
  return hosted;
}

/** The session's configuration file: the kit's provider and model, and the budget for that model. */
function writeConfig(sessionId, found) {
  const model = found.model ?? config.provider.model;
  const compaction = settings.compaction && {
    ...settings.compaction,
    contextWindow: settings.compaction.modelWindows?.[model] ?? settings.compaction.contextWindow,
  };
  const file = join(config.storeDir, `continue-${sessionId}.yaml`);
  writeFileSync(file, JSON.stringify(continueConfig({ provider: config.provider, model, compaction }), null, 2));
  return file;
}

/** The live state of a kit session: its server, the prompts held, the messages on their way. */
function liveState(sessionId) {
  records.get(sessionId);
  let state = live.get(sessionId);
  if (!state) {
    state = { held: [], sending: Promise.resolve() };
    live.set(sessionId, state);
  }
  return state;
}

/** The session's live state, its server started if it is not running. */
function session(sessionId) {
  const state = liveState(sessionId);
  clearTimeout(state.starting);
  state.starting = undefined;
  if (!state.server || state.server.gone) {
    const found = records.get(sessionId);
    state.server = new ServeProcess({
      cwd: found.location,
      env: environment(),
      args: ['--config', writeConfig(sessionId, found), '--id', found.continueId, ...TOOL_FLAGS],
      onDiagnostic: (line) => diagnostics.push(line),
    });
  }
  return state;
}

/** How long a new session waits before its server starts: the settings the kit sends next are read at that start. */
const START_DELAY_MS = 300;

/** Starts the session's server soon, as a start takes seconds. */
function startSoon(sessionId) {
  const state = liveState(sessionId);
  if (!state.server && !state.starting) state.starting = setTimeout(() => session(sessionId), START_DELAY_MS);
}

/**
 * A settings change: written, and each running server started again, as Continue reads them at
 * start: after the messages on their way to it, once it is idle, and before any message sent after.
 */
function applySettings(sessionIds = [...live.keys()], { fence = false } = {}) {
  writeFileSync(settingsFile(), JSON.stringify(settings));
  for (const sessionId of sessionIds) {
    const state = live.get(sessionId);
    if (!state?.server) continue;
    state.sending = state.sending.then(async () => {
      if (fence) await stopDrain(sessionId, state.server);
      while (await busy(state.server)) await delay(POLL_MS);
      state.server.stop();
      state.server = undefined;
      session(sessionId);
    });
  }
}

/**
 * The fence of a move: the running drain stops where it is (`POST /pause` aborts the model's
 * stream, and the loop makes no further model call), a tool already running ends as Continue lets
 * it (its result saved in the session file), and no turn of the drain begins in the old location.
 */
async function stopDrain(sessionId, server) {
  if ((await stateOf(server))?.isProcessing) await server.pause().catch(() => {});
  while (!server.gone && items(sessionId).some((item) => item.toolCallStates?.some((t) => t.status === 'calling')))
    await delay(POLL_MS);
}

/** A settings command: its value kept under `key`, and applied to every running server. */
const configure =
  (key, value = (c) => c) =>
  async (c) => {
    settings[key] = value(c);
    applySettings();
  };

let admitted = 0;

/**
 * Posts a message after those on their way, to the session's server (started again if it has
 * exited); whether it was queued behind a running turn.
 */
function post(sessionId, text) {
  const state = session(sessionId);
  const posted = state.sending.then(async () => {
    const { server } = session(sessionId);
    const queued = await busy(server);
    await server.message(text).catch((error) => {
      throw new Refusal('conflict', `Continue took no message: ${error.message}`);
    });
    return queued;
  });
  state.sending = posted.catch((error) => diagnostics.push(error.message));
  return posted;
}

/**
 * Whether the server runs or queues a turn, by its own `GET /state`; a server that has exited, or
 * never listened, does not.
 */
async function busy(server) {
  const state = await stateOf(server);
  return Boolean(state && (state.isProcessing || state.messageQueueLength > 0));
}

/** The server's `GET /state`, or undefined where no server answers. */
const stateOf = async (server) => (server?.base && !server.gone ? server.state().catch(() => undefined) : undefined);

function promptText(prompt) {
  if (prompt.parts.some((part) => part.type !== 'text'))
    throw new Refusal(
      'unsupported',
      `absent in ${VERSION}: POST /message takes a message as one string, no image or file`,
    );
  return prompt.parts.map((part) => part.text).join('\n');
}

async function admit(c) {
  if (c.delivery !== undefined && c.delivery !== 'steer' && c.delivery !== 'queue')
    throw new Refusal('invalid-input', `delivery must be steer or queue, not ${JSON.stringify(c.delivery)}`);
  const text = promptText(c.prompt);
  const state = session(c.sessionId);
  const messageId = c.id ?? `prompt_${config.instance}_${++admitted}`;
  if (c.resume === false && !(await busy(state.server))) {
    state.held.push(text);
    return new EmulatedAnswer({ messageId, state: 'pending', duplicate: false }, [
      'prompt.admit.held',
      'prompt.admit.receipt',
      'prompt.admit.id',
    ]);
  }
  const queued = await post(c.sessionId, text);
  return new EmulatedAnswer({ messageId, state: queued ? 'pending' : 'promoted', duplicate: false }, [
    'prompt.admit.receipt',
    'prompt.admit.id',
  ]);
}

async function submitHeld(sessionId) {
  records.get(sessionId);
  const state = live.get(sessionId);
  if (!state?.held.length) return;
  for (const text of state.held.splice(0)) await post(sessionId, text);
}

const POLL_MS = 50;
const delay = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** Until the server has nothing running or queued, by its own `GET /state`. */
async function idle(sessionId) {
  const state = live.get(sessionId);
  if (!state?.server) return;
  await state.sending;
  while (await busy(state.server)) await delay(POLL_MS);
}

const items = (sessionId) => readItems(sessionFile(globalDir(), records.get(sessionId).continueId));

/** Continue names a session's file after its ID: the kit's, where it makes a plain file name. */
const continueId = (sessionId) =>
  /^[A-Za-z0-9_.-]+$/.test(sessionId) ? sessionId : Buffer.from(sessionId).toString('hex');

const commands = {
  'session.create': (c) => {
    const created = records.create(c, config.instance, (id) => ({ continueId: continueId(id) }));
    startSoon(created.sessionId);
    return created;
  },
  'prompt.admit': admit,
  'session.run': (c) => submitHeld(c.sessionId),
  'session.wake': (c) => submitHeld(c.sessionId),
  'session.idle': async (c) => {
    records.get(c.sessionId);
    await idle(c.sessionId);
  },
  // An idle or unknown session has nothing to interrupt.
  'session.interrupt': async (c) => {
    const state = live.get(c.sessionId);
    if (!state?.server) return;
    await state.sending;
    if (await busy(state.server)) await state.server.pause().catch(() => {});
    await idle(c.sessionId);
  },
  // Continue finds a session by its ID wherever its server starts: moved, its drain stops at the
  // fence (POST /pause) and its server starts again in the new location.
  'session.move': async (c) => {
    const found = records.get(c.sessionId);
    found.location = c.location;
    records.save();
    applySettings([c.sessionId], { fence: true });
  },
  'session.select': async (c) => {
    if (typeof c.agent === 'string') throw new Refusal('unsupported', UNSUPPORTED['agent.define']);
    if (c.model === undefined) return;
    const found = records.get(c.sessionId);
    found.model = c.model ?? undefined;
    records.save();
    applySettings([c.sessionId]);
  },
  // cn serve asks about no call (a tool whose policy is ask is hidden from the model), but its
  // pending permission is what GET /state says.
  'permission.pending': async (c) => {
    records.get(c.sessionId);
    const pending = (await stateOf(live.get(c.sessionId)?.server))?.pendingPermission;
    return { requests: pending ? [{ id: pending.requestId, tool: pending.toolName, agent: 'build' }] : [] };
  },
  'permission.wait': async (c) => {
    const { server } = session(c.sessionId);
    for (;;) {
      const state = await stateOf(server);
      if (state?.pendingPermission) return;
      if (!state?.isProcessing && !state?.messageQueueLength)
        throw new Refusal('conflict', 'the turn ended without asking for permission');
      await delay(POLL_MS);
    }
  },
  'permission.reply': async (c) => {
    for (const { server } of live.values())
      if ((await stateOf(server))?.pendingPermission?.requestId === c.id)
        return void (await server.permission(c.id, c.approve));
    throw new Refusal('not-found', `no permission request ${c.id}`);
  },
  'compaction.configure': (c) => {
    // Profile sol's switches (not declared): Continue has no setting that turns its automatic
    // compaction off, prunes tool outputs, or gives compaction another model or prompt.
    const sol = ['auto', 'prune', 'model', 'prunedMessage'].filter((name) => c[name] !== undefined);
    if (sol.length > 0)
      throw new Refusal(
        'unsupported',
        `absent in ${VERSION}: Continue has no setting of ${sol.join(', ')} for its compaction`,
      );
    return configure('compaction')(c);
  },
  'tool-output.configure': configure('toolOutput'),
  'host.env.set': (c) => {
    // A switch another runtime reads would change nothing here: refused as absent, not kept.
    if (UNREAD_SWITCHES.has(c.name))
      throw new Refusal(
        'unsupported',
        `absent in ${VERSION}: Continue reads no ${c.name}, and no setting of its own turns off the working directory's AGENTS.md (constructSystemMessage, src/systemMessage.ts)`,
      );
    return configure('hostEnv', () => ({ ...settings.hostEnv, [c.name]: c.value }))(c);
  },
  // Continue lists the skills of `<global dir>/skills` in its Skills tool, read for every request.
  'skill.define': (c) => writeSkill(join(globalDir(), 'skills'), c, 'Continue'),
  ...storeReads({
    recordsOf: items,
    project: { history: toKitHistory, failures: toKitFailures, compactions: toKitCompactions, events: toKitEvents },
    known: (sessionId) => records.get(sessionId),
    subscriptions,
  }),
  diagnostics: () => ({ diagnostics }),
};

serveStdio({
  runtime: 'Continue',
  hello,
  commands,
  unsupported: UNSUPPORTED,
  end: async () => ServeProcess.killAll(),
  endNow: () => ServeProcess.killAll(),
});
