import {
  existsSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { permissionCommands } from '../../harness/adapter/acp-client.mjs';
import { SessionRecords } from '../../harness/adapter/session-records.mjs';
import { writeSkill } from '../../harness/adapter/skill-files.mjs';
import { EmulatedAnswer, PROTOCOL, Refusal, serveStdio } from '../../harness/adapter/stdio-serve.mjs';
import { storeReads } from '../../harness/adapter/store-reads.mjs';
import { durable, readEvents, toKitCompactions, toKitEvents, toKitFailures, toKitHistory } from './events-file.mjs';
import { CopilotServer } from './server.mjs';
import { markProjectRoot } from '../../harness/adapter/project-root.mjs';
import { withHostVariables } from '../../harness/adapter/runtime-package.mjs';
import { CALLER_IDS, heldPromptCommands, heldReceipt } from '../../harness/adapter/held-prompts.mjs';

/**
 * A `session-runtime-adapter/1` adapter driving the published GitHub Copilot CLI
 * (`@github/copilot`) through its SDK server, `copilot --headless --stdio`: one server process
 * serves the sessions of runtime after runtime, each session opened with the scenario's provider,
 * location and configuration directory (the kit's home), where Copilot CLI keeps the session's
 * events. Newline-delimited JSON on stdin and stdout; everything else goes to stderr.
 */

const PACKAGE = new URL('./node_modules/@github/copilot/', import.meta.url);
const VERSION = JSON.parse(readFileSync(new URL('package.json', PACKAGE), 'utf8')).version;
/** The platform package holding the binary (`@github/copilot`'s `npm-loader.js` picks it so). */
const BINARY = fileURLToPath(
  new URL(`./node_modules/@github/copilot-${process.platform}-${process.arch}/copilot`, import.meta.url),
);
/**
 * The binary unpacks its JavaScript into `$XDG_CACHE_HOME/copilot/pkg` (about 230 MB) on its first
 * start, and Node keeps the compiled code where NODE_COMPILE_CACHE says: both beside the installed
 * package, shared by every process, so no start unpacks or compiles again.
 */
const CACHE = fileURLToPath(new URL('./node_modules/.cache/', import.meta.url));

/** The kit's dialects as Copilot CLI's provider types (`ProviderConfig` of the SDK). */
const PROVIDERS = {
  'openai-chat': { type: 'openai', wireApi: 'completions' },
  'openai-responses': { type: 'openai', wireApi: 'responses' },
  'anthropic-messages': { type: 'anthropic' },
};

/**
 * Copilot CLI chooses a session's tools, prompts and default limits by the provider's `modelId`
 * ("Well-known model name used by the runtime to look up agent configuration (tools, prompts,
 * reasoning behavior) and default token limits", `ProviderConfig`, types.d.ts), and sends
 * `wireModel` on the wire. Its file-editing tool `apply_patch` it offers to its OpenAI Codex models
 * only ("Add apply_patch toolchain for OpenAI Codex models", changelog.json), in place of `create`
 * and `edit`: sessions are given a Codex model's `modelId`, the kit's model as `wireModel`, so the
 * kit's model goes on the wire and Copilot CLI's own patch tool is judged.
 */
const CODEX_MODEL_ID = 'gpt-5.3-codex';

/**
 * Its `apply_patch` takes the patch as free-form text: a custom tool in the OpenAI dialects, an
 * Anthropic tool whose one field is `input`.
 */
const PATCH_TOOL = { tool: 'apply_patch', patchField: 'input' };

const diagnostics = [];
let config;
let records;
const live = new Map();
const subscriptions = new Map();
let settings = {};

const DEFAULT_AGENT = 'build';

const EMULATED = {
  'prompt.admit.held':
    "a prompt admitted with resume false is held in the adapter's memory until session.run or session.wake",
  'prompt.admit.receipt': "the receipt echoes the kit's ID: Copilot CLI names each message itself",
  'prompt.admit.id':
    "a prompt's message ID is the adapter's note of it: Copilot CLI keeps no message IDs of the caller",
  'session.wake': 'submits the held prompts and nothing else: Copilot CLI starts no work when a session opens',
  events: 'the lines of events.jsonl, numbered by their position in the file',
  'events.subscribe': 'a cursor the adapter keeps over events.jsonl',
  'events.take': 'reads events.jsonl after the cursor the adapter keeps',
  'history-paging': 'its one command, history.page, is emulated',
  'compaction.configure.reserve':
    "the prompt limit given to Copilot CLI (maxPromptTokens) is the adapter's arithmetic: the window less the greater of the output allowance and the buffer; Copilot CLI has no compaction buffer",
  'history.output-path':
    "where the session is not open in the server (its process restarted since the call), a tool message's outputPath is the adapter's reading of the result's text (`Saved to: <path>`): Copilot CLI persists no `contents` of a result, the `shell_exit` block naming the saved file included",
  'session.select.window':
    "at a model switch the adapter looks up the new model's window and gives the provider its prompt limit again (session.options.update): the session's provider holds one limit, not one per model",
  'history.page':
    "the page is the adapter's cut of the history it reads from events.jsonl, in the order of session.eventLog.read: Copilot CLI's paged read counts events from a cursor of its own, not the history's messages before one of them",
};

const ABSENT = ['prompt.admit.receipt', 'prompt.admit.id', 'session.wake'];

/** The rules of a kit agent that a custom agent of Copilot CLI cannot hold. */
const AGENT_RULES_REFUSED = {
  ask: "Copilot CLI's permission rules are the session's (session.permissions.configure): the adapter sets them for the shell and the patch tool alone (a `shell` and a `write` rule), the kit's tools of a runtime without kit tools",
};

const UNSUPPORTED = {
  inbox:
    "Copilot CLI lists the prompts waiting in a session's queue (session.queue.pendingItems) but keeps no row of a prompt once it ran, nor the caller's message IDs",
  epoch:
    "Copilot CLI keeps no context epoch: it builds a session's system message when the session is created or resumed",
  'tool-output.configure':
    'Copilot CLI bounds a tool output by its size in bytes only (largeOutput.maxSizeBytes); it has no line limit',
};

function hello(c) {
  const provider = PROVIDERS[c.provider.dialect];
  if (!provider) throw new Refusal('unsupported', `Copilot CLI speaks no ${c.provider.dialect}`);
  config = c;
  mkdirSync(c.home, { recursive: true });
  // Copilot CLI's global instruction file is `<configDir>/copilot-instructions.md`: the kit's is AGENTS.md there.
  const global = join(c.home, 'copilot-instructions.md');
  if (!lstatSync(global, { throwIfNoEntry: false })) symlinkSync('AGENTS.md', global);
  records = new SessionRecords(c.storeDir);
  const file = join(c.storeDir, 'kit-settings.json');
  settings = existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')) : {};
  return {
    protocol: PROTOCOL,
    runtime: { name: 'copilot', version: VERSION, language: 'typescript' },
    profiles: ['core'],
    capabilities: ['restart', 'process-reuse', 'host-env', 'manual-compaction', 'history-paging'],
    shell: { tool: 'bash', commandField: 'command' },
    read: { tool: 'view', pathField: 'path' },
    patch: PATCH_TOOL,
    // Its skill tool takes the skill's name as `skill`.
    skill: { tool: 'skill', nameField: 'skill' },
    texts: {
      // Copilot CLI opens every prompt with the time it was sent, before a blank line.
      'system-message.fallback': '<current_datetime>{text}</current_datetime>\n',
      // Its summary request ends with this instruction (runtime.node), which no turn carries.
      'compaction.prompt': 'Please write the summary now, following the structure and guidelines above.',
    },
    emulated: EMULATED,
    absent: ABSENT,
    limits: {
      // Copilot CLI's system message and tool definitions weigh about 10,000 tokens of every request.
      requestOverheadTokens: 10_500,
      // A shell output over 20 KiB is saved to a file, the model given a notice and its first 500
      // characters (its tool telemetry's `large_output_threshold_bytes`: 20480).
      toolOutput: { maxBytes: 20_480 },
    },
  };
}

const record = (sessionId) => records.get(sessionId);

/**
 * The provider of the hello, as a session of Copilot CLI names it: the Anthropic SDK it uses adds
 * `/v1/messages` to its base URL, the OpenAI SDK only `/chat/completions` or `/responses`.
 */
const sessionProvider = () => ({
  ...PROVIDERS[config.provider.dialect],
  baseUrl:
    config.provider.dialect === 'anthropic-messages'
      ? config.provider.baseUrl.replace(/\/v1\/?$/, '')
      : config.provider.baseUrl,
  apiKey: config.provider.apiKey,
});

/**
 * The host variables the kit may set that Copilot CLI reads: its time zone (`TZ`, the local date
 * of `<current_datetime>`). Another variable would change nothing Copilot CLI does.
 */
const HOST_VARIABLES = new Set(['TZ']);

/**
 * A switch of the host environment another runtime reads that Copilot CLI has under a form of its
 * own: OpenCode's variable that turns project instruction discovery off is the session's
 * instruction sources found in the project (`location` `repository` or `working-directory` of
 * `session.instructions.getSources`) disabled (`disabledInstructionSources` of
 * `session.options.update`, what its /instructions picker sets), the user's own file kept.
 */
const PROJECT_INSTRUCTIONS_OFF = 'OPENCODE_DISABLE_PROJECT_CONFIG';
const PROJECT_LOCATIONS = new Set(['repository', 'working-directory']);

async function configureInstructions(child, found) {
  if (!settings.projectInstructionsOff) return;
  const { sources } = await child.request('session.instructions.getSources', { sessionId: found.uuid });
  await child.request('session.options.update', {
    sessionId: found.uuid,
    disabledInstructionSources: sources
      .filter((source) => PROJECT_LOCATIONS.has(source.location))
      .map((source) => source.id),
  });
}

/** The server process and what it was started with (its time zone and host variables). */
let server;
let serverKey;

const keyOf = () => JSON.stringify([config.timeZone ?? 'UTC', settings.hostEnv ?? {}]);

let starts = 0;

function environment(home) {
  const env = { ...process.env };
  for (const key of Object.keys(env)) if (/^(COPILOT|GH|GITHUB|OPENAI|ANTHROPIC)_/.test(key)) delete env[key];
  return withHostVariables(
    {
      ...env,
      HOME: home,
      COPILOT_HOME: join(home, '.copilot'),
      // What it unpacks or spools goes with the run's directory, not into the machine's.
      TMPDIR: join(home, 'tmp'),
      XDG_CACHE_HOME: CACHE,
      NODE_COMPILE_CACHE: join(CACHE, 'node-compile'),
      // Offline: no sign-in, telemetry, update or GitHub service; it asks for a provider at start,
      // which each session then names for itself.
      COPILOT_OFFLINE: 'true',
      COPILOT_PROVIDER_BASE_URL: config.provider.baseUrl,
      COPILOT_MODEL: config.provider.model,
      COPILOT_AUTO_UPDATE: 'false',
      TZ: config.timeZone ?? 'UTC',
      NO_COLOR: '1',
    },
    settings.hostEnv,
  );
}

/**
 * The server, started on first use, or again when the runtime needs another environment; calls
 * made while one is being stopped or started wait for it, so no two are ever started.
 */
let switching = Promise.resolve();

function copilot() {
  const next = switching.then(async () => {
    if (server && !server.exited && serverKey === keyOf()) return server;
    if (server) await stop();
    serverKey = keyOf();
    // Each server a home of its own (one stopped a moment ago may still hold its locks), in the
    // run's directory, which outlives the scenario that started it: it is the server's working
    // directory too, as a scenario's directories are removed when it ends, the server's start perhaps
    // not yet done.
    const home = join(config.runDir, `copilot-server-${process.pid}-${++starts}`);
    mkdirSync(join(home, 'tmp'), { recursive: true });
    server = new CopilotServer({
      command: BINARY,
      cwd: home,
      env: environment(home),
      onDiagnostic: (line) => diagnostics.push(line),
    });
    return server;
  });
  switching = next.catch(() => {});
  return next.then(async (child) => {
    await child.ready;
    return child;
  });
}

/**
 * What every session is opened with: the kit's provider, sending the session's model (`wireModel`:
 * a resumed session otherwise keeps the model it was opened with), its location and home.
 */
function sessionConfig(found) {
  const model = found.model ?? config.provider.model;
  const budget = compactionLimits(settings.compaction, model);
  const { [DEFAULT_AGENT]: defaultAgent, ...custom } = settings.agents ?? {};
  const agents = Object.values(custom);
  return {
    model,
    provider: modelProvider(model),
    workingDirectory: found.location,
    configDir: config.home,
    // A session of the SDK server discovers no configuration of its own (`enableConfigDiscovery`
    // is false by default): the user skills of the home are named as its skill directory.
    skillDirectories: [join(config.home, 'skills')],
    streaming: true,
    requestPermission: true,
    largeOutput: { enabled: true, outputDir: outputDirectory() },
    // The saved outputs are readable as its system's temporary directory, where it saves them by default, is.
    additionalDirectories: [outputDirectory()],
    ...(budget.infiniteSessions && { infiniteSessions: budget.infiniteSessions }),
    ...(agents.length > 0 && { customAgents: agents }),
    ...(defaultAgent?.excludedTools.length > 0 && { defaultAgent }),
    ...(found.agent && { agent: found.agent }),
  };
}

/** The provider as a session on `model` is given it: its name sent, its own prompt limit. */
const modelProvider = (model) => ({
  ...sessionProvider(),
  modelId: CODEX_MODEL_ID,
  wireModel: model,
  ...compactionLimits(settings.compaction, model).provider,
});

/** Where Copilot CLI writes the complete output of a large tool result (`largeOutput.outputDir`). */
const outputDirectory = () => join(config.storeDir, 'tool-outputs');

/**
 * The kit's compaction budget for `model`: Copilot CLI compacts before sending a request whose
 * prompt would exceed the provider's `maxPromptTokens` (the model's window, `modelWindows` or the
 * default one, less the reserve), and its background compaction, which starts at a share of that
 * limit (0.80 by default), starts at the limit itself.
 */
const windowOf = (budget, model) => budget?.modelWindows?.[model] ?? budget?.contextWindow;

function compactionLimits(budget, model) {
  const window = windowOf(budget, model);
  if (!window) return { provider: {} };
  // The reserve is the adapter's arithmetic (`compaction.configure.reserve`): Copilot CLI has no buffer.
  const reserve = Math.max(budget.outputAllowance ?? 0, budget.buffer ?? 0);
  return {
    provider: {
      maxPromptTokens: window - reserve,
      ...(budget.outputAllowance && { maxOutputTokens: budget.outputAllowance }),
    },
    infiniteSessions: { enabled: true, backgroundCompactionThreshold: 1, bufferExhaustionThreshold: 1 },
  };
}

/** The session opened in the server: resumed from its events, or new. */
async function open(sessionId) {
  const found = record(sessionId);
  const child = await copilot();
  let state = live.get(sessionId);
  if (!state || state.server !== child) {
    state = { held: [], server: child, opened: undefined };
    live.set(sessionId, state);
  }
  state.opened ??= (async () => {
    // A session is resumed again (another model, another budget) once its work is done.
    if (found.uuid) await child.idle(found.uuid);
    await attach(child, found);
    await configurePermissions(child, found);
    await configureSkills(child, found);
    await configureInstructions(child, found);
  })();
  await state.opened;
  return state;
}

/**
 * Opens the session of Copilot CLI's ID `found.uuid` in the server: resumed where Copilot CLI holds
 * it (`session.resume` loads it from the configuration directory's `session-state/`, or answers
 * "Session not found"), else created under that ID (`SessionConfig.sessionId`, "Optional custom
 * session ID"), or under an ID of its own when there is none. A created session is named (`name`,
 * which "makes the session persist from the start, so it can be listed and resumed without ever
 * running a turn", types.d.ts), with `fresh` (the kit's location) when the kit creates it. Answers
 * whether Copilot CLI created it.
 */
async function attach(child, found, fresh) {
  if (found.uuid)
    try {
      await child.request('session.resume', { sessionId: found.uuid, ...sessionConfig(found) });
      return false;
    } catch (error) {
      if (!/Session not found/.test(error.message)) throw error;
    }
  // A session the kit creates anew starts from its own location, with no model or agent chosen.
  if (fresh) {
    delete found.model;
    delete found.agent;
    Object.assign(found, fresh);
  }
  const created = await child.request('session.create', {
    ...sessionConfig(found),
    ...(found.uuid && { sessionId: found.uuid, name: found.uuid }),
  });
  if (!found.uuid) await child.request('session.name.set', { sessionId: created.sessionId, name: created.sessionId });
  found.uuid = created.sessionId;
  return true;
}

/** The kit's shell tool, Copilot CLI's `bash` (the hello's `shell.tool`). */
const SHELL = 'bash';

/**
 * The permission kinds Copilot CLI asks its host for, by the tool that asks: the shell a `shell`
 * request, the patch tool a `write` request for the files it changes.
 */
const PERMISSION_KINDS = { [SHELL]: 'shell', [PATCH_TOOL.tool]: 'write' };

/**
 * The session's permission rules are the selected agent's (`session.permissions.configure`): the
 * shell and the patch tool run without asking where the agent allows them, as the kit's default
 * agent, `build`, does unless told otherwise; otherwise Copilot CLI asks. Copilot CLI asks its host
 * for every file read; its own terminal host approves each (`approve-once`, "host_policy") unless
 * the read would bypass a sandbox or a managed policy requires approval: reads are approved so too.
 */
async function configurePermissions(child, found) {
  const agent = found.agent ?? DEFAULT_AGENT;
  const allowed = Object.entries(PERMISSION_KINDS)
    .filter(
      ([tool]) => (settings.agentTools?.[agent]?.[tool] ?? (agent === DEFAULT_AGENT ? 'allow' : 'ask')) === 'allow',
    )
    .map(([, kind]) => ({ kind, argument: null }));
  await child.request('session.permissions.configure', {
    sessionId: found.uuid,
    rules: { approved: [...allowed, { kind: 'read', argument: null }], denied: [] },
  });
}

/**
 * The skills the session may load are the selected agent's: Copilot CLI keeps a session's skills
 * enabled or disabled (`session.skills.enable`, `session.skills.disable`), set again at each
 * selection: a skill some agent's rules name is disabled where the selected agent denies it, else
 * enabled (a skill no rule names stays as Copilot CLI loaded it, enabled).
 */
async function configureSkills(child, found) {
  const rules = settings.agentSkills ?? {};
  const agent = rules[found.agent ?? DEFAULT_AGENT] ?? {};
  for (const name of new Set(Object.values(rules).flatMap(Object.keys)))
    await child.request(agent[name] === 'deny' ? 'session.skills.disable' : 'session.skills.enable', {
      sessionId: found.uuid,
      name,
    });
}

function attachmentsOf(prompt) {
  return prompt.parts
    .filter((part) => part.type !== 'text')
    .map((part) => ({ type: 'blob', data: part.data, mimeType: part.mimeType }));
}

const textOf = (prompt) =>
  prompt.parts
    .filter((part) => part.type === 'text')
    .map((part) => part.text)
    .join('\n');

/** The SDK's send modes: `immediate` steers the running turn, `enqueue` waits for it to end. */
const MODES = { steer: 'immediate', queue: 'enqueue' };

async function send(sessionId, prompt, delivery) {
  const { uuid } = record(sessionId);
  const attachments = attachmentsOf(prompt);
  await server.send(uuid, {
    prompt: textOf(prompt),
    ...(attachments.length > 0 && { attachments }),
    ...(delivery && { mode: MODES[delivery] }),
  });
}

let admitted = 0;

async function admit(c) {
  if (c.delivery !== undefined && !(c.delivery in MODES))
    throw new Refusal('invalid-input', `delivery must be steer or queue, not ${JSON.stringify(c.delivery)}`);
  const state = await open(c.sessionId);
  const messageId = c.id ?? `prompt_${config.instance}_${++admitted}`;
  const busy = server.isBusy(record(c.sessionId).uuid);
  if (c.resume === false && !busy) {
    state.held.push(c);
    return heldReceipt(messageId);
  }
  await send(c.sessionId, c.prompt, c.delivery);
  return new EmulatedAnswer({ messageId, state: busy ? 'pending' : 'promoted', duplicate: false }, CALLER_IDS);
}

async function submitHeld(sessionId) {
  const state = live.get(sessionId);
  if (!state?.held.length) return;
  await open(sessionId);
  for (const held of state.held.splice(0)) await send(sessionId, held.prompt, held.delivery);
}

/**
 * A session has settled once the server told it idle (its compaction ended too) and its event log
 * holds every event the server told that it persists: what the kit reads is then durable.
 */
async function idle(sessionId) {
  const uuid = records.all[sessionId]?.uuid;
  if (!uuid || !live.has(sessionId) || !server) return;
  const child = server;
  await child.idle(uuid);
  await durable(config.home, uuid, child.lastDurable(uuid), child.exitedPromise);
}

const recordsOf = (sessionId) => readEvents(config.home, record(sessionId).uuid);

/** What a result's text says of a large output saved to a file (`largeOutput.outputDir`). */
const SAVED = /^Output too large to read at once \([^)]*\)\. Saved to: (.+)$/m;

/**
 * The session's history, from events.jsonl. A shell call whose output was saved to a file names it
 * in its result's `shell_exit` block (`outputFilePath`, session-events.d.ts), which Copilot CLI
 * tells (`session.event`, and `session.getMessages` while the session is open) but leaves out of
 * the event it persists: each call's blocks are taken from the open session's own events. Where the
 * session is not open in the server (its process restarted since), the path is the adapter's reading
 * of the result's text, declared (`history.output-path`).
 */
async function historyOf(sessionId) {
  const records = recordsOf(sessionId);
  const { uuid } = record(sessionId);
  if (server && !server.exited && live.get(sessionId)?.server === server && records.length > 0) {
    const told = await server.request('session.getMessages', { sessionId: uuid }).catch(() => ({ events: [] }));
    const contents = new Map(
      told.events
        .filter((event) => event.type === 'tool.execution_complete' && event.data.result?.contents)
        .map((event) => [event.data.toolCallId, event.data.result.contents]),
    );
    for (const entry of records)
      if (entry.type === 'tool.execution_complete' && entry.data.result && contents.has(entry.data.toolCallId))
        entry.data.result.contents = contents.get(entry.data.toolCallId);
  }
  const messages = toKitHistory(records);
  let read = false;
  for (const message of messages) {
    const saved = message.role === 'tool' && !message.outputPath && SAVED.exec(message.output ?? '')?.[1];
    if (saved) [message.outputPath, read] = [saved, true];
  }
  return { messages, emulated: read ? ['history.output-path'] : [] };
}

/** The events that make the history's messages, as `session.eventLog.read` is asked for them. */
const MESSAGE_EVENTS = ['user.message', 'assistant.message', 'session.compaction_complete'];

/**
 * A page of the history, emulated: Copilot CLI's own paged read of its persisted event log,
 * `session.eventLog.read` with `direction: "backward"` (newest events first, persisted events
 * only), pages events by an opaque cursor and a count of events (`max`), where the kit asks for the
 * messages before one of them. Each event read is the history's message of the same ID, an
 * assistant message with the tool messages of its calls: the order is Copilot CLI's, the cut the
 * adapter's (the page ends before the message `before` and holds at most `limit` messages, oldest
 * first).
 */
async function historyPage({ sessionId, limit, before }) {
  const found = record(sessionId);
  const { messages } = await historyOf(sessionId);
  if (before !== undefined && !messages.some((message) => message.id === before))
    throw new Refusal('not-found', `no message ${before} in session ${sessionId}`);
  if (messages.length === 0) return { messages: [] };
  const madeBy = new Map();
  for (const message of messages) {
    const event = message.role === 'tool' ? message.assistantMessageId : message.id;
    madeBy.set(event, [...(madeBy.get(event) ?? []), message]);
  }
  await open(sessionId);
  const page = [];
  let reached = before === undefined;
  let cursor;
  do {
    const read = await server.request('session.eventLog.read', {
      sessionId: found.uuid,
      direction: 'backward',
      agentScope: 'primary',
      types: MESSAGE_EVENTS,
      max: 200,
      ...(cursor && { cursor }),
    });
    for (const event of read.events.toReversed())
      for (const message of (madeBy.get(event.id) ?? []).toReversed()) {
        if (reached && page.length < limit) page.push(message);
        if (message.id === before) reached = true;
      }
    cursor = read.hasMore && page.length < limit ? read.cursor : undefined;
  } while (cursor);
  return { messages: page.reverse() };
}

const commands = {
  // The session is Copilot CLI's, under the kit's ID (or one Copilot CLI gives when the kit names
  // none): whether it existed is Copilot CLI's answer (`attach`); the adapter keeps the kit's
  // location, model and agent of it in kit-sessions.json, to open it with them again.
  'session.create': async (c) => {
    // Copilot CLI reads a project's instruction files "in git root & cwd" (the instruction locations
    // its /help lists, cli-main.js): the kit's project root is made a Git repository.
    markProjectRoot(c.projectRoot);
    const child = await copilot();
    const found = (c.id !== undefined && records.all[c.id]) || { location: c.location, uuid: c.id };
    if (found.uuid) await child.idle(found.uuid);
    const created = await attach(child, found, { location: c.location });
    const sessionId = c.id ?? found.uuid;
    records.all[sessionId] = found;
    records.save();
    // A session just created is closed again (`sessions.close`): opened on first use, it is
    // resumed from its directory with the settings then in force, as a session resumed while it is
    // open keeps the compaction thresholds it was opened with.
    if (created) await child.request('sessions.close', { sessionId: found.uuid });
    const state = live.get(sessionId);
    if (state?.server === child) state.opened = undefined;
    else live.set(sessionId, { held: [], server: child, opened: undefined });
    return { sessionId, created };
  },
  'prompt.admit': admit,
  'history.page': historyPage,
  'session.wake': heldPromptCommands({ known: record, submitHeld })['session.wake'],
  // The prompts the adapter holds go first; with none, and no turn running to join, one turn runs over the history.
  'session.run': async (c) => {
    record(c.sessionId);
    if (live.get(c.sessionId)?.held.length) return submitHeld(c.sessionId);
    await open(c.sessionId);
    const { uuid } = record(c.sessionId);
    if (!server.isBusy(uuid)) await server.runTurn(uuid);
  },
  'session.idle': async (c) => {
    record(c.sessionId);
    await idle(c.sessionId);
  },
  'session.interrupt': async (c) => {
    const uuid = records.all[c.sessionId]?.uuid;
    if (!uuid || !server?.isBusy(uuid)) return;
    await server.request('session.abort', { sessionId: uuid });
    await server.idle(uuid);
  },
  // The model is switched in the session itself (`session.model.switchTo`, the SDK's
  // `setModel`): while a turn runs, Copilot CLI defers the switch until its work ends. The
  // provider is given again (`session.options.update`) with the model's own prompt limit and the
  // Codex `modelId` that chooses the session's tools, the model sent as `wireModel`. The agent is
  // selected in the session too (`session.agent.select`, or `session.agent.deselect` for the
  // default agent). Both are kept for the session's next opening (after a restart).
  'session.select': async (c) => {
    const found = record(c.sessionId);
    if (typeof c.agent === 'string') await selectAgent(c.sessionId, c.agent);
    if (c.model === undefined) return new EmulatedAnswer(undefined, []);
    found.model = c.model ?? undefined;
    records.save();
    await open(c.sessionId);
    const model = found.model ?? config.provider.model;
    await server.request('session.model.switchTo', { sessionId: found.uuid, modelId: model });
    await server.request('session.options.update', { sessionId: found.uuid, provider: modelProvider(model) });
    // The new model's limit is the adapter's lookup, given to the session's one provider.
    return new EmulatedAnswer(undefined, windowOf(settings.compaction, model) ? ['session.select.window'] : []);
  },
  // Copilot CLI moves a session with `session.metadata.setWorkingDirectory` (its `/cd`): the
  // session's recorded directory, where its tools run and its files are looked up, is the new one.
  'session.move': async (c) => {
    const found = record(c.sessionId);
    markProjectRoot(c.projectRoot);
    await open(c.sessionId);
    const moved = await server.request('session.metadata.setWorkingDirectory', {
      sessionId: found.uuid,
      workingDirectory: c.location,
    });
    found.location = moved?.workingDirectory ?? c.location;
    records.save();
  },
  'agent.define': async (c) => {
    settings.agents = { ...settings.agents, [c.name]: await customAgent(c) };
    settings.agentTools = { ...settings.agentTools, [c.name]: c.tools };
    settings.agentSkills = { ...settings.agentSkills, [c.name]: c.skills };
    await reopen();
  },
  ...permissionCommands({
    known: record,
    clientOf: () => server,
    clients: () => [server],
    agent: DEFAULT_AGENT,
  }),
  'compaction.configure': async (c) => {
    settings.compaction = c;
    await reopen();
  },
  'compaction.request': async (c) => {
    await open(c.sessionId);
    await server.request('session.history.compact', { sessionId: record(c.sessionId).uuid });
  },
  'host.env.set': async (c) => {
    if (c.name === PROJECT_INSTRUCTIONS_OFF) settings.projectInstructionsOff = c.value !== null && c.value !== '';
    else if (HOST_VARIABLES.has(c.name)) settings.hostEnv = { ...settings.hostEnv, [c.name]: c.value };
    else throw new Refusal('unsupported', `Copilot CLI reads no ${c.name}`);
    await reopen();
  },
  ...storeReads({
    recordsOf,
    project: { failures: toKitFailures, compactions: toKitCompactions, events: toKitEvents },
    known: record,
    subscriptions,
  }),
  history: async (c) => {
    const { messages, emulated } = await historyOf(c.sessionId);
    return new EmulatedAnswer({ messages }, emulated);
  },
  diagnostics: () => ({ diagnostics }),
  // A user skill under `<configDir>/skills`, read when a session is opened.
  'skill.define': (c) => writeSkill(join(config.home, 'skills'), c, 'Copilot CLI'),
  // Copilot CLI saves a large output in `largeOutput.outputDir` and names the file in the result.
  'tool-output.files': () => {
    const directory = outputDirectory();
    // Something other than a directory where it goes (a file) holds no saved output.
    const files = statSync(directory, { throwIfNoEntry: false })?.isDirectory()
      ? readdirSync(directory).map((name) => join(directory, name))
      : [];
    return { directory, files: files.sort() };
  },
  'runtime.close': async () => {
    const kept = await keepWarm();
    diagnostics.length = 0;
    live.clear();
    subscriptions.clear();
    config = undefined;
    return kept ? { kept: [kept] } : {};
  },
};

/**
 * A kit agent as Copilot CLI holds one. The kit's default agent, `build`, is Copilot CLI's own
 * default agent, its denied tools the session's `defaultAgent.excludedTools`; another is a custom
 * agent (`customAgents` of `session.create` and `session.resume`, `CustomAgentConfig` of
 * types.d.ts), whose `tools` name the tools it may use: all when null, else every built-in tool
 * Copilot CLI lists (`tools.list`) but the denied ones. Its rules about skills and permissions are
 * the session's, set for the selected agent (`configureSkills`, `configurePermissions`); a custom
 * agent's own `skills` names the skills preloaded whole into its context, not those it may load.
 */
async function customAgent(c) {
  const rules = Object.entries(c.tools).filter(([, rule]) => rule !== 'allow');
  if (rules.some(([tool, rule]) => rule === 'ask' && !(tool in PERMISSION_KINDS)))
    throw new Refusal('unsupported', AGENT_RULES_REFUSED.ask);
  const denied = rules.filter(([, rule]) => rule === 'deny').map(([tool]) => tool);
  if (c.name === DEFAULT_AGENT) return { excludedTools: denied };
  const { tools } = denied.length > 0 ? await (await copilot()).request('tools.list', {}) : { tools: null };
  return {
    name: c.name,
    displayName: c.name,
    description: `The agent ${c.name}`,
    prompt: '',
    tools: tools ? tools.map((tool) => tool.name).filter((name) => !denied.includes(name)) : null,
  };
}

async function selectAgent(sessionId, name) {
  const found = record(sessionId);
  if (name !== DEFAULT_AGENT && !settings.agents?.[name])
    throw new Refusal('not-found', `no agent ${name} was defined`);
  found.agent = name === DEFAULT_AGENT ? undefined : name;
  records.save();
  await open(sessionId);
  if (found.agent) await server.request('session.agent.select', { sessionId: found.uuid, name: found.agent });
  else await server.request('session.agent.deselect', { sessionId: found.uuid });
  await configurePermissions(server, found);
  await configureSkills(server, found);
}

/** Settings are read when a session is opened: the open sessions are opened again, after their work. */
async function reopen() {
  writeFileSync(join(config.storeDir, 'kit-settings.json'), JSON.stringify(settings));
  for (const id of live.keys()) await idle(id);
  for (const state of live.values()) state.opened = undefined;
}

/** Sessions a server opens at most before a new one is started in its place. */
const WARM_SESSIONS = 16;
let opened = 0;

/**
 * At runtime.close the server is kept for the next runtime when it runs in the default
 * environment: its running sessions are aborted and waited for.
 */
async function keepWarm() {
  const child = server;
  if (!child || child.exited) return undefined;
  opened += live.size;
  if (serverKey !== JSON.stringify(['UTC', {}]) || opened >= WARM_SESSIONS) {
    await stop();
    opened = 0;
    return undefined;
  }
  for (const uuid of child.busySessions()) await child.request('session.abort', { sessionId: uuid }).catch(() => {});
  const settled = await Promise.race([
    Promise.all(child.busySessions().map((uuid) => child.idle(uuid))).then(() => true),
    new Promise((resolve) => setTimeout(resolve, 3_000, false)),
  ]);
  if (!settled) {
    await stop();
    return undefined;
  }
  // The next runtime may name its sessions as this one did (`s1`): this one's are closed in the
  // server (`sessions.close`: "emits shutdown, flushes pending events to disk, … disposes the active
  // session"), so that a session of the same ID is looked up in the next runtime's own directory.
  for (const [id, state] of live)
    if (state.server === child && records.all[id]?.uuid)
      await child.request('sessions.close', { sessionId: records.all[id].uuid });
  child.sessions.clear();
  return child.child.pid;
}

async function stop() {
  await server?.stop();
  server = undefined;
  for (const state of live.values()) state.opened = undefined;
}

serveStdio({
  runtime: 'Copilot CLI',
  hello,
  commands,
  unsupported: UNSUPPORTED,
  // When the kit ends its run nothing of the store is read again: the server is not waited for.
  end: async () => server?.kill(),
  endNow: () => server?.kill(),
});
