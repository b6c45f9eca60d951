import { appendFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { PROTOCOL, Refusal, serveStdio } from '../../harness/adapter/stdio-serve.mjs';
import { storeReads } from '../../harness/adapter/store-reads.mjs';
import { AppServer } from './app-server.mjs';
import { catalogFor, toolCallingFamily } from './catalog.mjs';
import { codexConfig, trustedProject } from './config.mjs';
import { markProjectRootFile } from '../../harness/adapter/project-root.mjs';
import {
  CONTEXT_WRAPPERS,
  promotedPrompts,
  readRollout,
  toKitCompactions,
  toKitEpoch,
  toKitEvents,
  toKitFailures,
  toKitHistory,
} from './rollout.mjs';
import { pinnedVersion, withHostVariables } from '../../harness/adapter/runtime-package.mjs';

/**
 * A `session-runtime-adapter/1` adapter driving the published Codex CLI (`@openai/codex`)
 * through its own app-server: one `codex app-server` process per runtime, speaking JSON-RPC on
 * stdio, a Codex thread per kit session, with the thread's rollout (JSONL) as the durable store.
 * Newline-delimited JSON on stdin and stdout; everything else goes to stderr.
 */

const VERSION = pinnedVersion(import.meta.url, '@openai/codex');

/**
 * A switch of the host environment another runtime reads that Codex has under a name of its own:
 * OpenCode's variable that turns project instruction discovery off is Codex's
 * `project_doc_max_bytes = 0`, which reads no project AGENTS.md and keeps the global one
 * (the budget "applies only to project files").
 */
const PROJECT_DOCS_OFF = 'OPENCODE_DISABLE_PROJECT_CONFIG';

const diagnostics = [];
let config;
let records = {};
let recordFile;
let settings = {};
let server;
/** Codex's bundled model family the kit's models are catalogued as (catalog.mjs). */
let family;
/** Per Codex thread: the turns running and who waits for a change. */
const threads = new Map();
const subscriptions = new Map();

/** What this adapter computes itself because Codex has no such notion. */
const EMULATED = {
  'session.create':
    'the adapter keeps kit session IDs and locations in kit-sessions.json, each with the Codex thread it started (thread/start)',
  'prompt.admit.receipt':
    "the receipt echoes the kit's message ID, passed to Codex as clientUserMessageId: Codex keeps no admission record of its own",
  'session.wake': "starts Codex's queue (thread/queue/start) where an interrupt left it, and nothing else",
  'session.idle':
    "no turn the adapter started or saw start is without its turn/completed notification, and Codex's thread queue is empty or held by an interrupt",
  'session.run': 'starts a turn with no new input (turn/start with an empty input); Codex drains its queue after it',
  'inbox.admission':
    "Codex records a prompt when it enters the history, with the kit's message ID (client_id), and keeps a queued one in its thread queue, but records no admission: the adapter notes each admission's delivery and, as its admission sequence, the position of the rollout's last record then; a steer Codex holds in memory until the running turn's next request is pending while this process lives",
  events: "the rollout's records, numbered by their position in the file",
  'events.subscribe': 'a cursor the adapter keeps over the rollout',
  'events.take': 'reads the rollout after the cursor the adapter keeps',
};

const NO_AGENTS =
  "Codex has no agents of the kit's kind (its subagents are spawned by the model as tools): only the default agent build maps, its skills onto Codex's skill switches (skills/config/write)";
const NO_TOOL_RULES =
  "not mapped: Codex's exec-policy rules (prefix_rule) match a command's leading words, not a tool: a rule that prompts would reach the kit as an approval request, but no rule stands for a tool";

const NO_ADMIT_ONLY =
  'Codex has no admission without a run: turn/start and thread/queue/add start an idle thread at once, and turn/steer joins the running turn';

/** Commands Codex has no equivalent for, and why (adapters/codex/README.md says more). */
const UNSUPPORTED = {
  'retry.wait':
    `absent in ${VERSION}: ` +
    "Codex waits between retries of a failed provider request with real sleeps, and retries are off here (request_max_retries = 0): no retry waits on the kit's clock",
  'tool-output.configure':
    `absent in ${VERSION}: ` +
    "a line limit: Codex bounds a tool output by bytes or tokens alone (tool_output_token_limit; its truncation policy's modes are bytes and tokens, keeping the head and the tail around a ' tokens truncated' marker), so the kit's limit in lines cannot be set; Codex's own bound is declared as limits.toolOutput",
  'tool-output.files':
    `absent in ${VERSION}: ` +
    "Codex keeps no file of a bounded tool output: it cuts the output in place, keeping its head and tail around a truncation marker, and only a hook's output is ever written to a file (hook_outputs), with hooks switched off here",
};

function hello(c) {
  if (c.provider.dialect !== 'openai-responses')
    throw new Refusal(
      'unsupported',
      'Codex speaks only the OpenAI Responses API: run the kit with KIT_DIALECT=openai-responses',
    );
  config = c;
  mkdirSync(c.home, { recursive: true });
  recordFile = join(c.storeDir, 'kit-sessions.json');
  records = existsSync(recordFile) ? JSON.parse(readFileSync(recordFile, 'utf8')) : {};
  const settingsFile = join(c.storeDir, 'codex-settings.json');
  settings = existsSync(settingsFile) ? JSON.parse(readFileSync(settingsFile, 'utf8')) : {};
  family = toolCallingFamily(environment());
  return startServer().then(() => ({
    protocol: PROTOCOL,
    runtime: { name: 'codex', version: VERSION, language: 'rust' },
    profiles: ['core'],
    capabilities: ['restart', 'manual-compaction', 'process-reuse', 'host-env', 'virtual-clock', 'history-paging'],
    shell: { tool: 'exec_command', commandField: 'cmd', workdirField: 'workdir' },
    // Codex's apply_patch takes the patch as `input`, called as a function or as a free-form tool.
    patch: { tool: 'apply_patch', patchField: 'input' },
    texts: {
      // turn/start while a turn runs adds the input to it (the app-server steers).
      'prompt.default-delivery': 'steer',
      // Codex sends its context as user-role messages of its own, each fragment in its markers:
      // the environment (with the date) and AGENTS.md (headed by its directory), at the start of
      // the thread and again when they change, and a note after an interrupted turn.
      'system-message.fallback': CONTEXT_WRAPPERS,
      // Codex's notices on a changed or removed AGENTS.md (its world state's AGENTS.md section).
      'instructions.supersession':
        'These AGENTS.md instructions replace all previously provided AGENTS.md instructions.',
      'instructions.revocation': 'The previously provided AGENTS.md instructions no longer apply.',
    },
    emulated: EMULATED,
    // The family's window, compacted at 90% of it at the latest (ModelInfo::auto_compact_token_limit).
    limits: {
      contextWindow: family.context_window,
      outputAllowance: 0,
      compactionBuffer: family.context_window - Math.floor((family.context_window * 9) / 10),
      // A compaction keeps the newest user messages up to 20000 tokens verbatim
      // (COMPACT_USER_MESSAGE_MAX_TOKENS in codex-rs/core/src/compact.rs).
      recentContextTokens: 20_000,
      toolOutput: { maxBytes: ownToolOutputBytes(family) },
    },
  }));
}

/**
 * The bound Codex puts on every tool output its history keeps when nothing configures it: the
 * model family's truncation policy, in bytes or in tokens of four bytes (approx_bytes_for_tokens),
 * with the fifth more its history allows for serialization (ContextManager::process_item:
 * `policy * 1.2`). Its shell cuts its own output at the policy itself, before that bound.
 */
function ownToolOutputBytes({ truncation_policy: policy }) {
  return Math.floor((policy.mode === 'bytes' ? policy.limit : policy.limit * 4) * 1.2);
}

function environment() {
  const env = { ...process.env };
  for (const key of Object.keys(env)) if (/^(OPENAI|CODEX|AZURE)_/.test(key)) delete env[key];
  // The kit's host.env.set: Codex reads its environment when the app-server starts.
  return withHostVariables(
    {
      ...env,
      HOME: join(config.storeDir, 'home'),
      // The kit's home is Codex's home: its AGENTS.md is the global instructions, config.toml its
      // configuration, and the rollouts and SQLite state are kept there.
      CODEX_HOME: config.home,
      TMPDIR: join(config.storeDir, 'tmp'),
      KIT_PROVIDER_API_KEY: config.provider.apiKey,
      TZ: config.timeZone ?? 'UTC',
      NO_COLOR: '1',
    },
    settings.hostEnv,
  );
}

/** The locations config.toml marks as trusted projects. */
const trusted = new Set();

/**
 * A session's location becomes a project its user trusts, as when they answer Codex's trust
 * prompt: Codex reads config.toml again for each thread it starts, resumes or moves, and derives
 * its approval policy and sandbox from that answer itself.
 */
function trust(location) {
  if (trusted.has(location)) return;
  trusted.add(location);
  appendFileSync(join(config.home, 'config.toml'), `\n${trustedProject(location)}`);
}

async function startServer() {
  mkdirSync(join(config.storeDir, 'home'), { recursive: true });
  mkdirSync(join(config.storeDir, 'tmp'), { recursive: true });
  const catalogFile = join(config.storeDir, 'kit-models.json');
  const { contextWindow, outputAllowance = 0, buffer = 0, modelWindows = {} } = settings.compaction ?? {};
  const windows = { [config.provider.model]: contextWindow, ...modelWindows };
  writeFileSync(catalogFile, JSON.stringify(catalogFor(family, windows, Math.max(outputAllowance, buffer))));
  trusted.clear();
  for (const found of Object.values(records)) trusted.add(found.location);
  writeFileSync(
    join(config.home, 'config.toml'),
    codexConfig({
      baseUrl: config.provider.baseUrl,
      model: config.provider.model,
      catalogFile,
      ...settings,
      trusted: [...trusted],
    }),
  );
  threads.clear();
  approvals.clear();
  server = new AppServer({
    cwd: config.storeDir,
    env: environment(),
    onNotification: notified,
    onServerRequest: answerServer,
    onDiagnostic: (line) => diagnostics.push(line),
  });
  await server.initialize();
  // config.toml is written anew above: the skills an agent definition turned off are turned off again.
  for (const [name, enabled] of Object.entries(settings.skills ?? {}))
    await server.request('skills/config/write', { name, enabled });
}

/**
 * A skill is a SKILL.md folder in Codex's user skills root ($CODEX_HOME/skills): its name and
 * description in the front matter, its body after it. The folder is named after the skill's
 * location where the kit gives one (the path Codex shows for it then ends with that location),
 * else after the skill. Codex caches skills per working directory: they are scanned again.
 */
async function defineSkill(c) {
  const folder = join(config.home, 'skills', basename(c.location ?? '') || c.name);
  mkdirSync(folder, { recursive: true });
  const front = ['---', `name: ${JSON.stringify(c.name)}`, `description: ${JSON.stringify(c.description)}`, '---'];
  writeFileSync(join(folder, 'SKILL.md'), `${front.join('\n')}\n\n${c.body}\n`);
  const cwds = [...new Set([config.storeDir, ...Object.values(records).map((found) => found.location)])];
  await server.request('skills/list', { cwds, forceReload: true });
}

/** The approval requests Codex sends its client, and the tool each is about. */
const APPROVALS = {
  'item/commandExecution/requestApproval': 'exec_command',
  'item/fileChange/requestApproval': 'apply_patch',
};
/** Approval requests Codex is waiting on, by the kit's request ID; each answered by permission.reply. */
const approvals = new Map();
let asked = 0;

/**
 * Codex asks before a command or a patch its approval policy does not let through (the server
 * requests above): the request waits, unanswered, until the kit replies. Anything else is declined.
 */
function answerServer(message) {
  // Codex's clock is the kit's once the kit has set it (clock_source = "external"): whole seconds.
  if (message.method === 'currentTime/read') return { currentTimeAt: Math.floor(Date.parse(settings.clock) / 1000) };
  const tool = APPROVALS[message.method];
  if (!tool) {
    if (/requestApproval$/.test(message.method)) return { decision: 'decline' };
    throw new Error(`the adapter does not serve ${message.method}`);
  }
  const { threadId } = message.params;
  return new Promise((answer) => {
    const id = `approval_${config.instance}_${++asked}`;
    approvals.set(id, { id, rpcId: message.id, threadId, tool, answer });
    changed(threadState(threadId));
  });
}

/** The approval requests waiting in a session's thread, oldest first. */
function waitingApprovals(threadId) {
  return [...approvals.values()].filter((request) => request.threadId === threadId);
}

function threadState(threadId) {
  let state = threads.get(threadId);
  if (!state) {
    state = {
      id: threadId,
      running: new Set(),
      queued: new Set(),
      unrecorded: new Map(),
      waiters: [],
      loaded: false,
      status: 'idle',
    };
    threads.set(threadId, state);
  }
  return state;
}

function changed(state) {
  for (const notify of state.waiters.splice(0)) notify();
}

function notified({ method, params }) {
  const threadId = params?.threadId ?? params?.thread?.id;
  if (!threadId) return;
  const state = threadState(threadId);
  if (method === 'turn/started') {
    state.running.add(params.turn.id);
    state.paused = false;
  } else if (method === 'turn/completed') {
    state.running.delete(params.turn.id);
    // Codex leaves its queue as it is after an interrupted turn, until it is started again.
    state.paused = params.turn.status === 'interrupted';
    // An interrupt drops the steers Codex held in memory for the turn (its pending input is cleared):
    // they are no prompt of its any more, and the inbox must not list them from the adapter's note.
    if (state.paused) state.unrecorded.clear();
  } else if (method === 'thread/status/changed') state.status = params.status?.type ?? state.status;
  // Codex's word that a thread's settings are applied (and stored: a resumed thread takes them).
  else if (method === 'thread/settings/updated') state.model = params.threadSettings?.model ?? state.model;
  // A queued prompt leaves Codex's queue before its turn starts: it is waited for until it shows.
  else if (method === 'item/started' && params.item?.type === 'userMessage') state.queued.delete(params.item.clientId);
  else if (method === 'thread/started' && params.thread?.path) state.path = params.thread.path;
  // Codex withdrew a request (its turn ended or was interrupted): nobody can answer it any more.
  else if (method === 'serverRequest/resolved')
    for (const [id, request] of approvals) if (request.rpcId === params.requestId) approvals.delete(id);
  changed(state);
}

function saveRecords() {
  writeFileSync(recordFile, JSON.stringify(records, null, 2));
}

function record(sessionId) {
  const found = records[sessionId];
  if (!found) throw new Refusal('not-found', `no session ${sessionId}`);
  return found;
}

/** The thread of a session, loaded into this app-server: resumed from its rollout after a restart. */
async function loaded(sessionId) {
  const found = record(sessionId);
  const state = threadState(found.threadId);
  if (state.loaded) return state;
  state.loading ??= (async () => {
    try {
      const reply = await server.request('thread/resume', { threadId: found.threadId, cwd: found.location });
      found.path = reply.thread?.path ?? found.path;
      state.model = reply.model;
    } catch (error) {
      // A thread Codex never wrote a rollout for (no turn ran before the restart) cannot be
      // resumed: a new thread takes its place.
      if (found.path && existsSync(found.path)) throw error;
      const reply = await server.request('thread/start', { cwd: found.location });
      found.threadId = reply.thread.id;
      found.path = reply.thread.path;
      threadState(found.threadId).model = reply.model;
    }
    saveRecords();
    const current = threadState(found.threadId);
    current.loaded = true;
    return current;
  })();
  return state.loading;
}

const rolloutOf = (sessionId) => readRollout(record(sessionId).path);

function promptInput(prompt) {
  return prompt.parts.flatMap((part) => {
    if (part.type === 'text') return [{ type: 'text', text: part.text, text_elements: [] }];
    if (part.type === 'image') return [{ type: 'image', url: `data:${part.mediaType};base64,${part.data}` }];
    return [];
  });
}

async function startTurn(sessionId, input, messageId) {
  const state = await loaded(sessionId);
  const found = record(sessionId);
  // A session moved since its last turn: turn/start's cwd moves the thread for this turn and
  // the ones after it, and Codex resolves AGENTS.md and the environment from there.
  const moved = found.movedTo === found.location;
  const reply = await server.request('turn/start', {
    threadId: state.id,
    input,
    ...(messageId === undefined ? {} : { clientUserMessageId: messageId }),
    ...(moved ? { cwd: found.location } : {}),
  });
  state.running.add(reply.turn.id);
  if (moved) {
    delete found.movedTo;
    saveRecords();
  }
  return state;
}

/**
 * The default agent's skills: a skill it may not load is switched off in Codex
 * (skills/config/write, kept in config.toml), so Codex lists it nowhere; one it may load, or
 * that a new definition no longer lists, is switched on again. Other agents and tool rules have
 * no mapping.
 */
async function defineAgent(c) {
  if (c.name !== 'build') throw new Refusal('unsupported', NO_AGENTS);
  if (Object.keys(c.tools).length > 0) throw new Refusal('unsupported', NO_TOOL_RULES);
  const skills = Object.fromEntries(Object.keys(settings.skills ?? {}).map((name) => [name, true]));
  for (const [name, permission] of Object.entries(c.skills)) skills[name] = permission === 'allow';
  settings.skills = skills;
  writeFileSync(join(config.storeDir, 'codex-settings.json'), JSON.stringify(settings));
  for (const [name, enabled] of Object.entries(skills)) await server.request('skills/config/write', { name, enabled });
}

/**
 * Moves a session: the thread's next turn/start carries the new location as its cwd. While a
 * turn runs or an interrupt holds Codex's queue, the turns Codex starts by itself take no cwd
 * from the adapter: thread/settings/update sets it for them, and turn/settings/update for the
 * running turn's next steps.
 */
async function move(c) {
  const found = record(c.sessionId);
  markProjectRootFile(c.projectRoot);
  trust(c.location);
  found.location = c.location;
  found.movedTo = c.location;
  saveRecords();
  const state = await loaded(c.sessionId);
  if (state.running.size > 0 || state.paused) {
    await server.request('thread/settings/update', { threadId: state.id, cwd: c.location });
    // The running turn's later steps move too (turn/settings/update `environments`: "Replace the
    // environments for subsequent steps of this turn"): its first environment is the session's location.
    if (state.running.size > 0) {
      const { thread } = await server.request('thread/read', { threadId: state.id });
      const [first, ...rest] = thread?.environments ?? [{ environmentId: 'local' }];
      const environments = [{ environmentId: first.environmentId, cwd: c.location }, ...rest];
      for (const turnId of [...state.running])
        await server.request('turn/settings/update', { threadId: state.id, turnId, environments });
    }
    delete found.movedTo;
    saveRecords();
  }
}

let admitted = 0;
const NOT_STEERABLE = /NotSteerable|not steerable|cannot steer/i;

async function admit(c) {
  if (c.delivery !== undefined && c.delivery !== 'steer' && c.delivery !== 'queue') {
    throw new Refusal('invalid-input', `delivery must be steer or queue, not ${JSON.stringify(c.delivery)}`);
  }
  if (c.resume === false) throw new Refusal('unsupported', NO_ADMIT_ONLY);
  const state = await loaded(c.sessionId);
  const messageId = c.id ?? `prompt_${config.instance}_${++admitted}`;
  const input = promptInput(c.prompt);
  noteAdmission(c.sessionId, state, messageId, c.delivery ?? 'steer', c.prompt);
  try {
    return await deliver(c, state, input, messageId);
  } catch (error) {
    // Codex refused it: nothing of it waits anywhere.
    state.unrecorded.delete(messageId);
    throw error;
  }
}

/** Steers or queues into a running turn, or starts one; the receipt says which. */
async function deliver(c, state, input, messageId) {
  const [active] = state.running;
  if (active !== undefined) {
    if (c.delivery === 'queue' || !(await steered(state, active, input, messageId)))
      await enqueue(state, input, messageId);
    return { messageId, state: 'pending', duplicate: false };
  }
  try {
    await startTurn(c.sessionId, input, messageId);
  } catch (error) {
    // A compaction turn that started since: Codex takes no input into it, its clients queue.
    if (!NOT_STEERABLE.test(error.message)) throw error;
    await enqueue(state, input, messageId);
    return { messageId, state: 'pending', duplicate: false };
  }
  return { messageId, state: 'promoted', duplicate: false };
}

/**
 * Notes what Codex does not record of an admission: its delivery and its place in the rollout's
 * order (the sequence of the last record written then), kept with the session; and, for this
 * process only, its text until Codex records it or queues it (a steer waits in Codex's memory).
 */
function noteAdmission(sessionId, state, messageId, delivery, prompt) {
  const found = record(sessionId);
  found.admitted = [...(found.admitted ?? []), { messageId, delivery, at: rolloutOf(sessionId).length }];
  saveRecords();
  const text = prompt.parts.flatMap((part) => (part.type === 'text' ? [part.text] : [])).join('');
  state.unrecorded.set(messageId, text);
}

/**
 * The inbox as Codex keeps it: promoted, the prompts its rollout records with their message IDs;
 * pending, the prompts in its thread queue (thread/queue/list), and the ones admitted by this
 * process that Codex has neither recorded nor queued yet. In admission order.
 */
async function inbox(sessionId) {
  const state = await loaded(sessionId);
  // A retried admission keeps the note of its first.
  const notes = new Map();
  for (const [order, note] of (record(sessionId).admitted ?? []).entries())
    if (!notes.has(note.messageId)) notes.set(note.messageId, { ...note, order });
  const row = (messageId, text, promotedSeq, delivery) => {
    const note = notes.get(messageId);
    return {
      messageId,
      text,
      delivery: note?.delivery ?? delivery,
      state: promotedSeq === null ? 'pending' : 'promoted',
      // A prompt admitted without the adapter's note was admitted right before Codex recorded it.
      admittedSeq: note?.at ?? promotedSeq - 1,
      promotedSeq,
      order: note?.order ?? notes.size,
    };
  };
  const rows = promotedPrompts(rolloutOf(sessionId)).map((prompt) => row(prompt.id, prompt.text, prompt.seq, 'steer'));
  for (const submission of await queueOf(state))
    rows.push(row(submission.clientUserMessageId, inputText(submission.input), null, 'queue'));
  const listed = new Set(rows.map((found) => found.messageId));
  for (const [messageId, text] of state.unrecorded)
    if (listed.has(messageId)) state.unrecorded.delete(messageId);
    else if (notes.has(messageId)) rows.push(row(messageId, text, null, 'steer'));
  rows.sort((a, b) => a.admittedSeq - b.admittedSeq || a.order - b.order);
  return { rows: rows.map(({ order, ...kept }) => kept) };
}

/**
 * A page of the history through Codex's own paging of a thread's items (thread/items/list, newest
 * first, cursor by cursor): each item is the history's message of the same ID, a user message by
 * the kit's message ID (the item's clientId), an assistant message by the provider's item ID, a
 * call (commandExecution, fileChange, ...) by its call ID with the assistant message that made it.
 * Items of no message (reasoning, Codex's own notices) are passed over. The page ends before the
 * message `before`, holds at most `limit` messages, and is given in durable order.
 */
async function historyPage({ sessionId, limit, before }) {
  const state = await loaded(sessionId);
  const messages = toKitHistory(rolloutOf(sessionId));
  if (before !== undefined && !messages.some((message) => message.id === before))
    throw new Refusal('not-found', `no message ${before} in session ${sessionId}`);
  const byId = new Map();
  for (const message of messages) byId.set(message.role === 'tool' ? message.callId : message.id, message);
  const assistants = new Map(messages.filter((m) => m.role === 'assistant').map((m) => [m.id, m]));
  const page = [];
  const taken = new Set();
  let reached = before === undefined;
  let cursor = null;
  do {
    const reply = await server.request('thread/items/list', {
      threadId: state.id,
      sortDirection: 'desc',
      limit: ITEMS_PAGE,
      ...(cursor ? { cursor } : {}),
    });
    for (const { item } of reply.data) {
      const message = byId.get(item.type === 'userMessage' ? (item.clientId ?? item.id) : item.id);
      const made = message?.role === 'tool' ? [message, assistants.get(message.assistantMessageId)] : [message];
      for (const found of made) {
        if (!found || taken.has(found.id)) continue;
        taken.add(found.id);
        if (found.id === before) reached = true;
        else if (reached && page.length < limit) page.push(found);
      }
    }
    cursor = reply.nextCursor;
  } while (cursor && page.length < limit);
  return { messages: page.reverse() };
}

/** How many of Codex's items one thread/items/list request reads. */
const ITEMS_PAGE = 50;

const inputText = (input) => input.flatMap((part) => (part.type === 'text' ? [part.text] : [])).join('');

/**
 * Steers the running turn; false when Codex refuses because that turn takes no input (a
 * compaction turn), where its own clients queue the prompt instead.
 */
async function steered(state, turnId, input, messageId) {
  try {
    await server.request('turn/steer', {
      threadId: state.id,
      input,
      expectedTurnId: turnId,
      clientUserMessageId: messageId,
    });
    return true;
  } catch (error) {
    if (NOT_STEERABLE.test(error.message)) return false;
    throw new Refusal('busy', error.message);
  }
}

/** A turn without new input: turn/start accepts an empty input and samples the thread as it is. */
async function run(sessionId) {
  const state = await loaded(sessionId);
  if (state.running.size === 0) await startTurn(sessionId, []);
}

/** Starts Codex's own queue where an interrupt left it. */
async function wake(sessionId) {
  const state = await loaded(sessionId);
  if (state.running.size > 0 || (await queued(state)) === 0) return;
  const reply = await server.request('thread/queue/start', { threadId: state.id });
  state.running.add(reply.turn.id);
}

async function enqueue(state, input, messageId) {
  state.queued.add(messageId);
  await server.request('thread/queue/add', { threadId: state.id, input, clientUserMessageId: messageId });
}

/** Codex's durable queue of the thread's prompts, every page of it. */
async function queueOf(state) {
  const submissions = [];
  let cursor = null;
  do {
    const reply = await server.request('thread/queue/list', { threadId: state.id, cursor });
    submissions.push(...reply.data);
    cursor = reply.nextCursor;
  } while (cursor);
  return submissions;
}

async function queued(state) {
  return (await queueOf(state)).length;
}

async function idle(sessionId) {
  const state = await loaded(sessionId);
  for (;;) {
    if (server.exited) return;
    const waiting = () => !state.paused && state.queued.size > 0;
    if (
      state.running.size === 0 &&
      !waiting() &&
      (state.paused || (await queued(state)) === 0) &&
      state.running.size === 0 &&
      !waiting()
    )
      return;
    await new Promise((resolve) => state.waiters.push(resolve));
  }
}

/** Answers once a call of the session waits for approval; refused once its work ended with none. */
async function permissionWait(sessionId) {
  const state = await loaded(sessionId);
  for (;;) {
    if (waitingApprovals(state.id).length > 0) return;
    if (server.exited) throw new Refusal('conflict', 'the Codex app-server exited with no call awaiting approval');
    if (state.running.size === 0 && !state.paused && state.queued.size === 0 && (await queued(state)) === 0) {
      if (waitingApprovals(state.id).length > 0) return;
      if (state.running.size === 0)
        throw new Refusal('conflict', "the session's work ended with no call awaiting approval: Codex asked for none");
    }
    await new Promise((resolve) => state.waiters.push(resolve));
  }
}

const commands = {
  'permission.pending': async (c) => {
    const state = await loaded(c.sessionId);
    // Codex has one agent of the kit's kind, the default one: every request is build's.
    return { requests: waitingApprovals(state.id).map(({ id, tool }) => ({ id, tool, agent: 'build' })) };
  },
  'permission.wait': (c) => permissionWait(c.sessionId),
  'permission.reply': (c) => {
    const request = approvals.get(c.id);
    if (!request) throw new Refusal('not-found', `no call awaits approval as ${c.id}`);
    approvals.delete(c.id);
    request.answer({ decision: c.approve ? 'accept' : 'decline' });
    changed(threadState(request.threadId));
  },
  'session.create': async (c) => {
    const sessionId = c.id ?? `session_${config.instance}_${Object.keys(records).length + 1}`;
    if (records[sessionId]) return { sessionId, created: false };
    // Codex bounds AGENTS.md discovery at the nearest directory holding one of its
    // project_root_markers: the kit's project root is marked with the one configured.
    markProjectRootFile(c.projectRoot);
    trust(c.location);
    const reply = await server.request('thread/start', { cwd: c.location });
    records[sessionId] = { location: c.location, threadId: reply.thread.id, path: reply.thread.path };
    Object.assign(threadState(reply.thread.id), { loaded: true, model: reply.model });
    saveRecords();
    return { sessionId, created: true };
  },
  'prompt.admit': admit,
  inbox: (c) => inbox(c.sessionId),
  'history.page': historyPage,
  'session.run': (c) => run(c.sessionId),
  'session.wake': (c) => wake(c.sessionId),
  'session.idle': (c) => idle(c.sessionId),
  'session.move': move,
  'skill.define': defineSkill,
  'agent.define': defineAgent,
  'session.interrupt': async (c) => {
    // Interrupting an unknown session does nothing.
    if (!records[c.sessionId]) return;
    const state = await loaded(c.sessionId);
    for (const turnId of [...state.running]) await server.request('turn/interrupt', { threadId: state.id, turnId });
    while (state.running.size > 0 && !server.exited) await new Promise((resolve) => state.waiters.push(resolve));
  },
  'session.select': async (c) => {
    if (typeof c.agent === 'string' && c.agent !== 'build') throw new Refusal('unsupported', NO_AGENTS);
    if (c.model === undefined) return;
    const state = await loaded(c.sessionId);
    const model = c.model ?? config.provider.model;
    await server.request('thread/settings/update', { threadId: state.id, model });
    // Codex answers once the update is queued for the thread, and applies it after: only its
    // thread/settings/updated notification says the thread runs the model from now on, and a
    // process that dies before it resumes the thread with the model it had. It notifies only a
    // change, so a model the thread already runs is not waited for.
    while (state.model !== model && !server.exited) await new Promise((resolve) => state.waiters.push(resolve));
    // A running turn takes it from its next step on (turn/settings/update, step_model_switching).
    for (const turnId of [...state.running])
      await server.request('turn/settings/update', { threadId: state.id, turnId, model });
  },
  'compaction.configure': async (c) => {
    settings.compaction = {
      contextWindow: c.contextWindow,
      outputAllowance: c.outputAllowance,
      buffer: c.buffer,
      modelWindows: c.modelWindows,
    };
    await restart();
  },
  'compaction.request': async (c) => {
    const state = await loaded(c.sessionId);
    await server.request('thread/compact/start', { threadId: state.id });
  },
  'host.env.set': async (c) => {
    if (c.name === PROJECT_DOCS_OFF) settings.projectDocsOff = c.value !== null && c.value !== '';
    else settings.hostEnv = { ...settings.hostEnv, [c.name]: c.value };
    await restart();
  },
  'clock.set': async (c) => {
    const external = settings.clock !== undefined;
    settings.clock = c.now;
    writeFileSync(join(config.storeDir, 'codex-settings.json'), JSON.stringify(settings));
    // Codex reads its clock source from config.toml when it starts: the first setting restarts it.
    if (!external) await restart();
  },
  ...storeReads({
    recordsOf: rolloutOf,
    project: { history: toKitHistory, failures: toKitFailures, compactions: toKitCompactions, events: toKitEvents },
    known: record,
    subscriptions,
  }),
  // Codex's world state and the context its window opens with, read from the rollout.
  epoch: (c) => toKitEpoch(rolloutOf(c.sessionId)),
  diagnostics: () => ({ diagnostics }),
  'runtime.close': close,
};

/**
 * Ends this runtime's app-server (its stdin closed, as at the end of the adapter's input) and
 * forgets everything of it: the next hello starts another app-server over its own home.
 */
async function close() {
  await server?.stop();
  server = undefined;
  config = undefined;
  records = {};
  settings = {};
  family = undefined;
  threads.clear();
  approvals.clear();
  subscriptions.clear();
  diagnostics.length = 0;
  return {};
}

/** Codex reads config.toml when its app-server starts: a new budget restarts it. */
async function restart() {
  writeFileSync(join(config.storeDir, 'codex-settings.json'), JSON.stringify(settings));
  for (const state of threads.values())
    while (state.running.size > 0 && !server.exited) await new Promise((r) => state.waiters.push(r));
  await server.stop();
  await startServer();
}

serveStdio({
  runtime: 'Codex',
  hello,
  commands,
  unsupported: UNSUPPORTED,
  end: () => server?.stop(),
  endNow: () => server?.kill(),
});
