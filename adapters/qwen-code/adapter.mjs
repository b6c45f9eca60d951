import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { toKitCompactions, toKitEvents, toKitFailures, toKitHistory, readRecords } from './chat-file.mjs';
import { EmulatedAnswer, PROTOCOL, Refusal, serveStdio } from '../../harness/adapter/stdio-serve.mjs';
import { SessionRecords } from '../../harness/adapter/session-records.mjs';
import { storeReads } from '../../harness/adapter/store-reads.mjs';
import { writeSkill } from '../../harness/adapter/skill-files.mjs';
import { permissionCommands } from '../../harness/adapter/acp-client.mjs';
import { AcpProcess } from './acp-process.mjs';
import { Links } from './links.mjs';
import { DEFAULT_AGENT, permissionRules, qwenSettings } from './settings.mjs';
import { pinnedVersion } from '../../harness/adapter/runtime-package.mjs';
import { CALLER_IDS, heldReceipt } from '../../harness/adapter/held-prompts.mjs';

/**
 * A `session-runtime-adapter/1` adapter driving the published Qwen Code CLI
 * (`@qwen-code/qwen-code`) through its own Agent Client Protocol interface, as its client: one
 * `qwen --acp` process per open session, the session working in its location, with its chat
 * recording (`session/new` with the session's UUID, `session/load`) as the durable store; a process
 * whose session closed may open the next one (see `retire`).
 * Newline-delimited JSON on stdin and stdout; everything else goes to stderr.
 */

const VERSION = pinnedVersion(import.meta.url, '@qwen-code/qwen-code');

const diagnostics = [];
let config;
/** The kit's sessions, each with the runtime's session ID. */
let records;
const live = new Map();
const subscriptions = new Map();
let settings = {};
/** The links the processes' environment names, pointed at the runtime's directories (links.mjs). */
let links;
/** A process whose session was closed, kept to open the next session that asks for what it started with. */
let spare;

/** What this adapter computes itself because Qwen Code has no such notion. */
const EMULATED = {
  'session.create':
    'the adapter keeps kit session IDs and locations in kit-sessions.json and names each Qwen Code session by a UUID derived from the kit ID (--session-id)',
  'prompt.admit.held':
    "a prompt admitted with resume false is held in the adapter's memory until session.run or session.wake: Qwen Code has no admit-without-run",
  'prompt.admit.receipt': "the receipt echoes the kit's ID: Qwen Code keeps no message IDs of the caller",
  'prompt.admit.id': "a prompt's message ID is the adapter's note of it: Qwen Code keeps no message IDs of the caller",
  'prompt.admit.queued':
    "a prompt queued while a turn runs is held in the adapter's memory and sent as the next session/prompt once that turn is answered, as an ACP client must",
  'session.wake': 'submits the held prompts and nothing else: Qwen Code starts no work when a session opens',
  'session.idle':
    'every session/prompt the adapter sent has its answer and it holds no prompt or steer for the session; refused busy once a call of the session has awaited approval five seconds unanswered',
  'agent.define.default':
    "a session that selects no agent runs as the agent build, with build's rules as the kit defined them and the adapter's own where it defined none (run_shell_command and the skill tool run without asking): Qwen Code has no agents, so no default one",
  events: "the chat recording's records, numbered by their position in the file",
  'events.subscribe': 'a cursor the adapter keeps over the chat recording',
  'events.take': 'reads the chat recording after the cursor the adapter keeps',
};

/**
 * What of EMULATED, and of the commands it answers unsupported, Qwen Code has no interface for at
 * all: it keeps no message IDs of the caller, no prompt without a run, no wake and no context epoch;
 * a rule about one is not implemented.
 */
const ABSENT = ['prompt.admit.held', 'prompt.admit.receipt', 'prompt.admit.id', 'session.wake', 'epoch'];

/** Commands Qwen Code has no equivalent for, and why (adapters/qwen-code/README.md says more). */
const UNSUPPORTED = {
  inbox: 'Qwen Code keeps no inbox: under ACP its client holds queued prompts and steers until Qwen Code asks for them',
  epoch: 'Qwen Code keeps no context epoch: the system prompt is rebuilt from files whenever a process starts',
};

function hello(c) {
  if (c.provider.dialect === 'openai-responses')
    throw new Refusal(
      'unsupported',
      'Qwen Code speaks the OpenAI Chat Completions and Anthropic Messages APIs, not the OpenAI Responses API',
    );
  config = c;
  // What the spare wrote on its stderr since the runtime before closed is that runtime's.
  diagnostics.length = 0;
  links ??= new Links(c.runDir ?? tmpdir());
  links.point({
    home: join(c.storeDir, 'home'),
    // The kit's home is Qwen Code's global directory: its AGENTS.md and QWEN.md are the global instructions.
    qwen: c.home,
    // Chat recordings, temporary files and tool outputs go under the store, not the kit's home.
    runtime: join(c.storeDir, 'runtime'),
    tmp: join(c.storeDir, 'tmp'),
  });
  // Qwen Code makes its debug log's directory once for a path (ensureDebugDirExists keeps the path
  // it made), and through the link the path is every runtime's: each runtime's is made here.
  mkdirSync(join(c.storeDir, 'runtime', 'debug'), { recursive: true });
  records = new SessionRecords(c.storeDir);
  const settingsFile = join(c.storeDir, 'settings.json');
  settings = existsSync(settingsFile) ? JSON.parse(readFileSync(settingsFile, 'utf8')) : {};
  return {
    protocol: PROTOCOL,
    runtime: { name: 'qwen-code', version: VERSION, language: 'typescript' },
    profiles: ['core'],
    capabilities: ['restart', 'manual-compaction', 'process-reuse'],
    // Its shell runs commands in a pseudo-terminal under ACP (node-pty, `executeWithPty`).
    shell: { tool: 'run_shell_command', commandField: 'command', workdirField: 'directory', terminal: true },
    // Its file reader takes an absolute path only (ReadFileTool's parameter check, chunk-2VS5EEXU.js),
    // and a range of lines as a 0-based `offset` and a `limit` (its parameter schema there).
    read: {
      tool: 'read_file',
      pathField: 'file_path',
      absolutePaths: true,
      lines: { offsetField: 'offset', zeroBased: true, limitField: 'limit' },
    },
    // Its skill tool takes the skill's name as `skill` (chunks/skill-*.js).
    skill: { tool: 'skill', nameField: 'skill' },
    texts: {
      // Qwen Code lowers its own context reminders into the user turn they go with.
      'system-message.fallback': '<system-reminder>\n{text}\n</system-reminder>',
      // A prompt that names no delivery waits for the running turn and runs as a turn of its own.
      'prompt.default-delivery': 'queue',
      // A steer taken in between tool batches reaches the model framed (MID_TURN_USER_MESSAGE_PREFIX,
      // prefixMidTurnUserMessageParts in acpAgent), so the model knows it came during a tool run.
      'prompt.steer-framing': '\n[User message received during tool execution]: {text}',
      // A summary without a state snapshot is asked for again (hasStateSnapshot in its compression).
      'compaction.summary-form': '<state_snapshot>\n{summary}\n</state_snapshot>',
    },
    emulated: EMULATED,
    absent: ABSENT,
    // Qwen Code keeps 33000 tokens of headroom whatever share of the window it is given: the 20000
    // its summary request may answer with, and 13000 more (computeThresholds in its compaction).
    // Its own system prompt and tool definitions weigh about 22,400 tokens of every request.
    limits: {
      contextWindow: 131_072,
      outputAllowance: 32_000,
      compactionBuffer: 33_000,
      summaryOutputTokens: 20_000,
      requestOverheadTokens: 23_000,
    },
  };
}

const record = (sessionId) => records.get(sessionId);
const saveRecords = () => records.save();

/** A UUID derived from the kit's session ID: Qwen Code accepts only UUIDs as session IDs. */
function uuidOf(sessionId) {
  const hex = createHash('sha256').update(sessionId).digest('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-8${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

/** The chat recording of a session: Qwen Code files it under its project directory (the location, sanitized). */
function chatFile(sessionId) {
  const { uuid } = record(sessionId);
  const projects = join(config.storeDir, 'runtime', 'projects');
  if (!existsSync(projects)) return join(projects, 'none.jsonl');
  for (const project of readdirSync(projects)) {
    const file = join(projects, project, 'chats', `${uuid}.jsonl`);
    if (existsSync(file)) return file;
  }
  return join(projects, 'none.jsonl');
}

const entries = (sessionId) => readRecords(chatFile(sessionId));

const anthropic = () => config.provider.dialect === 'anthropic-messages';

/** A process's environment but for its directories, which are the links' (links.mjs). */
function environment() {
  const env = { ...process.env };
  for (const key of Object.keys(env))
    if (/^(OPENAI|QWEN|DASHSCOPE|ANTHROPIC|GEMINI|GOOGLE)_/.test(key)) delete env[key];
  return {
    ...env,
    // The kit's provider in the dialect the scenario names: Qwen Code's OpenAI-compatible client,
    // or its Anthropic one at the base URL without `/v1` (the Anthropic SDK appends `/v1/messages`).
    ...(anthropic()
      ? {
          ANTHROPIC_API_KEY: config.provider.apiKey,
          ANTHROPIC_BASE_URL: config.provider.baseUrl.replace(/\/v1\/?$/, ''),
        }
      : { OPENAI_API_KEY: config.provider.apiKey, OPENAI_BASE_URL: config.provider.baseUrl }),
    TZ: config.timeZone ?? 'UTC',
    QWEN_DISABLE_AUTO_TITLE: '1',
    QWEN_CODE_DISABLE_PRECONNECT: '1',
    QWEN_CODE_NO_RELAUNCH: '1',
    // Qwen Code tells operators what went wrong (a tool output it could not save, say) in its debug
    // log, written only where the operator asks for it: `<QWEN_RUNTIME_DIR>/debug/<session>.txt`.
    QWEN_DEBUG_LOG_FILE: '1',
    NO_COLOR: '1',
  };
}

/** The kit's provider as a Qwen Code `modelProviders` entry names it: protocol, endpoint, key variable. */
function providerEntry() {
  return anthropic()
    ? {
        authType: 'anthropic',
        baseUrl: config.provider.baseUrl.replace(/\/v1\/?$/, ''),
        envKey: 'ANTHROPIC_API_KEY',
        model: config.provider.model,
      }
    : { authType: 'openai', baseUrl: config.provider.baseUrl, envKey: 'OPENAI_API_KEY', model: config.provider.model };
}

/**
 * A turn Qwen Code answered with an error is settled once its chat recording ends with the error
 * that ended it (an `api_error` telemetry record, after the turn's user record). Qwen Code writes
 * its records through an asynchronous queue, which the answer does not wait for, and a turn that
 * failed after a compression has more than one such record (the refusal it compressed on, the
 * summary request's, the compression, the refusal of the rebuilt attempt), which can be written
 * after the answer: the recording is taken as complete once it has ended with an error and not
 * grown for 200 ms, the queue's writes taking milliseconds. Waits on the file, at most 5 s.
 */
async function failureRecorded(sessionId) {
  let [seen, steady] = [-1, 0];
  for (let waited = 0; waited < 5_000; waited += 25) {
    const records = entries(sessionId);
    const lastUser = records.findLastIndex((record) => record.type === 'user');
    const endsWithError =
      records.length - 1 > lastUser && records.at(-1).systemPayload?.uiEvent?.['event.name'] === 'qwen-code.api_error';
    [seen, steady] = records.length === seen ? [seen, steady + 25] : [records.length, 0];
    if (endsWithError && steady >= 200) return;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/** The agent a session runs as; a defined one has its rules in `settings.agents`. */
const agentOf = (sessionId) => record(sessionId).agent ?? DEFAULT_AGENT;
const defined = (agent) => Object.hasOwn(settings.agents ?? {}, agent);

/**
 * Qwen Code's user settings, `$QWEN_HOME/settings.json` (settings.mjs), with the permission rules of
 * the agent the session about to open runs as: Qwen Code reads them when a session opens (again
 * once the file changed: `loadSettingsCached` compares its size, time and inode), and each open
 * session has a process of its own.
 */
function writeQwenSettings(sessionId) {
  writeFileSync(
    join(config.home, 'settings.json'),
    JSON.stringify(qwenSettings(settings, providerEntry(), sessionId && agentOf(sessionId)), null, 2),
  );
}

/** Saves what the kit configured, which a restarted adapter reads in its hello. */
const saveSettings = () => writeFileSync(join(config.storeDir, 'settings.json'), JSON.stringify(settings));

/**
 * A live session runs as `agent` from its next provider turn: Qwen Code's own ext method
 * qwen/permissions/setRules replaces the user rules of each kind and applies the difference to the
 * permission manager of every live session of the process (syncLivePermissionManagers), which
 * checks each later call. The skills a process lists and leaves disabled stay those it started with:
 * Qwen Code has no switch of them for one session. Its ext method qwen/skills/setEnabled
 * (setGlobalSkillEnabled, acpAgent-*.js) writes `disable-model-invocation: true` into the skill's
 * SKILL.md under $QWEN_HOME/skills, which every session's process watches, so it would switch the
 * skill for every session; the `skills.disabled` a session's skill listing reads
 * (buildDisabledSkillNamesProvider over the settings the session was created with) is reloaded live
 * only from the workspace scope (Session.reloadSkillSettings, qwen/control/workspace/skills/refresh),
 * the `.qwen/settings.json` of the session's location, which every session there shares.
 */
async function applyAgent(state, agent) {
  state.process.agent = agent;
  await state.process.setPermissionRules(permissionRules(agent, settings.agents?.[agent]));
}

/** The open process of a session, started on first use with the session's chat recording. */
function open(sessionId) {
  const found = record(sessionId);
  const existing = live.get(sessionId);
  if (existing && !existing.process.exited) return existing;
  writeQwenSettings(sessionId);
  const resumed = existsSync(chatFile(sessionId));
  // Qwen Code files a session's chat recording under the directory it was opened in and keeps it
  // there when the session moves (session/cd migrates no artifact): a moved session is loaded where
  // it was opened, then moved again by Qwen Code itself.
  if (!resumed || found.openedIn === undefined) {
    found.openedIn = found.location;
    saveRecords();
  }
  const qwen = startedWith({
    env: environment(),
    args: [
      '--auth-type',
      anthropic() ? 'anthropic' : 'openai',
      '--model',
      found.model ?? config.provider.model,
      // Qwen Code's default mode asks the client (session/request_permission) for every call its rules leave to the user.
      '--approval-mode',
      'default',
    ],
  });
  qwen.open({
    cwd: found.openedIn,
    sessionId: found.uuid,
    resume: resumed,
    model: found.model,
    agent: agentOf(sessionId),
    afterFailedTurn: () => failureRecorded(sessionId),
  });
  if (found.location !== found.openedIn) qwen.move(found.location);
  const state = { process: qwen, held: [] };
  live.set(sessionId, state);
  return state;
}

/**
 * A process started with `start` (its arguments and environment, but for the links): the spare if
 * it was started so, else a new one. What a process reads once, when it starts, is only this and
 * the files the links name then: every session reads its own settings, instruction files and
 * skills when it opens (AcpProcess.open).
 */
function startedWith(start) {
  const key = JSON.stringify(start);
  const kept = spare;
  spare = undefined;
  if (kept?.key === key && !kept.exited) return kept;
  kept?.kill();
  const qwen = new AcpProcess({
    cwd: links.cwd,
    env: { ...start.env, ...links.env() },
    args: start.args,
    onDiagnostic: (line) => diagnostics.push(line),
  });
  qwen.key = key;
  return qwen;
}

/**
 * Ends the processes of sessions that are closing: the first whose session Qwen Code closes
 * (AcpProcess.release) becomes the spare unless one is kept already, the others stop. Starting a
 * process costs more CPU than most scenarios' turns (it compiles Qwen Code's bundle).
 */
async function retire(processes) {
  for (const qwen of processes)
    if (!spare && (await qwen.release())) spare = qwen;
    else await qwen.stop();
}

/** The warnings and errors of Qwen Code's debug logs (`<time> [WARN] [<tag>] <message>`), session by session. */
function debugLogWarnings() {
  const debug = join(config.storeDir, 'runtime', 'debug');
  if (!existsSync(debug)) return [];
  return readdirSync(debug)
    .filter((name) => name.endsWith('.txt'))
    .sort()
    .flatMap((name) => readFileSync(join(debug, name), 'utf8').split('\n'))
    .filter((line) => /^\S+ \[(WARN|ERROR)\]/.test(line));
}

function promptText(prompt) {
  return prompt.parts
    .filter((part) => part.type === 'text')
    .map((part) => part.text)
    .join('\n');
}

let admitted = 0;

async function admit(c) {
  if (c.delivery !== undefined && c.delivery !== 'steer' && c.delivery !== 'queue') {
    throw new Refusal('invalid-input', `delivery must be steer or queue, not ${JSON.stringify(c.delivery)}`);
  }
  const state = open(c.sessionId);
  const messageId = c.id ?? `prompt_${config.instance}_${++admitted}`;
  const text = promptText(c.prompt);
  if (c.resume === false && !state.process.turning) {
    state.held.push(text);
    return heldReceipt(messageId);
  }
  const running = state.process.busy;
  // A steer into a running turn waits for Qwen Code to ask for it between tool batches
  // (craft/drainMidTurnQueue); a queued prompt waits in the adapter for the running turn's answer.
  const queued = running && !(c.delivery === 'steer' && state.process.turning);
  if (c.delivery === 'steer') state.process.steer(text);
  else state.process.sendUser(text);
  return new EmulatedAnswer({ messageId, state: running ? 'pending' : 'promoted', duplicate: false }, [
    ...CALLER_IDS,
    ...(queued ? ['prompt.admit.queued'] : []),
  ]);
}

/** How long a call may await approval before a wait for idleness says nobody answered it. */
const UNANSWERED_MS = 5_000;

/**
 * Every `session/prompt` sent is answered and nothing is held. A session whose call awaits an
 * approval no one gives never settles: once the same request waited five seconds, the wait is
 * refused (`busy`) rather than left to run out the kit's command timeout. The seconds let a step
 * that waits for the request alongside it reply first, on a loaded machine too.
 */
async function settled(sessionId) {
  const { uuid } = record(sessionId);
  const qwen = live.get(sessionId)?.process;
  let [seen, since] = [undefined, 0];
  while (qwen?.busy) {
    const asked = [...qwen.permissions.values()].find((request) => request.sessionId === uuid);
    if (asked?.id !== seen) [seen, since] = [asked?.id, Date.now()];
    if (!asked) {
      await qwen.changed();
      continue;
    }
    const left = since + UNANSWERED_MS - Date.now();
    if (left <= 0)
      throw new Refusal(
        'busy',
        `the session waits for permission request ${asked.id} (${asked.tool}): nobody answered it`,
      );
    await Promise.race([qwen.changed(), new Promise((resolve) => setTimeout(resolve, left))]);
  }
}

/**
 * Sends the held prompts. Each that finds a turn running (the one sent before it, say) waits in the
 * adapter's queue for it: what orders them then is the adapter, which the answer names.
 */
async function submitHeld(sessionId) {
  const state = open(sessionId);
  const held = state.held.splice(0);
  const queued = held.length > 1 || (held.length > 0 && state.process.busy);
  for (const text of held) state.process.sendUser(text);
  return { state, answer: queued ? new EmulatedAnswer(undefined, ['prompt.admit.queued']) : undefined };
}

const commands = {
  'session.create': (c) =>
    records.create(c, config.instance, (sessionId) => ({ uuid: uuidOf(`${config.storeDir}/${sessionId}`) })),
  'prompt.admit': admit,
  'session.run': async (c) => {
    const { state, answer } = await submitHeld(c.sessionId);
    if (state.process.busy) return answer;
    // Qwen Code's own way to go on without new input: qwen/control/session/continue accepts an
    // interrupted prompt or turn and refuses otherwise.
    await state.process.continueLastTurn();
  },
  'session.wake': async (c) => {
    record(c.sessionId);
    if (live.get(c.sessionId)?.held.length) return (await submitHeld(c.sessionId)).answer;
  },
  'session.idle': (c) => settled(c.sessionId),
  'session.interrupt': async (c) => {
    const state = live.get(c.sessionId);
    if (!state?.process.busy) return;
    await state.process.interrupt();
    await state.process.idle();
  },
  'session.select': async (c) => {
    if (typeof c.agent === 'string') await selectAgent(c.sessionId, c.agent);
    if (c.model === undefined) return;
    const found = record(c.sessionId);
    found.model = c.model ?? undefined;
    saveRecords();
    const model = c.model ?? config.provider.model;
    const state = live.get(c.sessionId);
    const running = state && !state.process.exited;
    // Qwen Code's ACP switches only to a model of its registry: a model not yet in it gets a
    // modelProviders entry, which a live process reads again (its own reload of them).
    if (!(settings.models ?? []).includes(model)) {
      settings.models = [...(settings.models ?? []), model];
      saveSettings();
      if (running) {
        writeQwenSettings(c.sessionId);
        await state.process.reloadModelProviders();
      }
    }
    if (running) await state.process.setModel(model);
  },
  // Qwen Code's own move of a live session: its ACP ext method qwen/control/session/cd, which
  // relocates the session once its running turn settled (new storage, the instruction files and
  // MCP servers of the destination read again). A session Qwen Code has not opened yet starts there.
  // Qwen Code answers once it has moved: after the running turn settled (beginSessionCloseAfterCurrentGate,
  // waitForActiveTurnsToSettle), or with an error once that wait passed its drain timeout
  // (SESSION_DRAIN_TIMEOUT_MS, 30 s), the session left where it was.
  'session.move': async (c) => {
    const found = record(c.sessionId);
    const state = live.get(c.sessionId);
    if (state && !state.process.exited)
      await state.process.move(c.location).catch((error) => {
        throw new Refusal('busy', `Qwen Code did not move the session (qwen/control/session/cd): ${error.message}`);
      });
    found.location = c.location;
    saveRecords();
  },
  // A kit agent is a set of Qwen Code permission rules (settings.mjs): the sessions that run as it
  // start with them, and a live one takes them again when they change.
  // Qwen Code has no default agent: that sessions selecting none run as build is the adapter's
  // (agent.define.default), which the answer that defines build names.
  'agent.define': async (c) => {
    settings.agents = { ...settings.agents, [c.name]: { tools: c.tools ?? {}, skills: c.skills ?? {} } };
    saveSettings();
    for (const [sessionId, state] of live)
      if (!state.process.exited && agentOf(sessionId) === c.name) await applyAgent(state, c.name);
    return new EmulatedAnswer(undefined, c.name === DEFAULT_AGENT ? ['agent.define.default'] : []);
  },
  'skill.define': defineSkill,
  // Qwen Code asks its client about each call awaiting approval (session/request_permission),
  // as its rules, the session's agent's, leave to the user.
  ...permissionCommands({
    known: record,
    clientOf: (sessionId) => live.get(sessionId)?.process,
    clients: () => [...live.values()].map((state) => state.process),
    agent: DEFAULT_AGENT,
  }),
  // Each request is asked of the agent the session ran as when Qwen Code asked it.
  'permission.pending': (c) => {
    const { uuid } = record(c.sessionId);
    const asked = [...(live.get(c.sessionId)?.process.permissions.values() ?? [])];
    return {
      requests: asked
        .filter((request) => request.sessionId === uuid)
        .map(({ id, tool, agent }) => ({ id, tool, agent: agent ?? DEFAULT_AGENT })),
    };
  },
  'compaction.configure': async (c) => {
    settings.compaction = c;
    await restartAll();
  },
  // Qwen Code's own /compress, a prompt like any other: it runs after the running turn, before the
  // next prompt's provider turn, and is answered like a turn.
  'compaction.request': (c) => {
    open(c.sessionId).process.sendUser('/compress', 'command');
  },
  'tool-output.configure': async (c) => {
    settings.toolOutput = c;
    await restartAll();
  },
  ...storeReads({
    recordsOf: entries,
    project: { history: toKitHistory, failures: toKitFailures, compactions: toKitCompactions, events: toKitEvents },
    known: record,
    subscriptions,
  }),
  diagnostics: () => ({ diagnostics: [...diagnostics, ...debugLogWarnings()] }),
  // The runtime's sessions are closed and their processes end, but for the spare, which the kit is
  // told to keep; the links are pointed away from the runtime's directories. The next hello opens
  // a new runtime over its own store and home.
  'runtime.close': async () => {
    await retire([...live.values()].map((state) => state.process));
    links.idle();
    live.clear();
    subscriptions.clear();
    config = undefined;
    return spare ? { kept: [spare.child.pid] } : {};
  },
  'tool-output.files': () => {
    // Qwen Code saves the complete output of a truncated result in its project's temporary
    // directory (`<QWEN_RUNTIME_DIR>/tmp/<hash of the project root>`), one per project, and names
    // it through the link.
    const tmp = join(links.env().QWEN_RUNTIME_DIR, 'tmp');
    // A file where that directory goes (a scenario may put one there) holds no output.
    const projects = statSync(tmp, { throwIfNoEntry: false })?.isDirectory()
      ? readdirSync(tmp, { withFileTypes: true })
          .filter((entry) => entry.isDirectory())
          .map((entry) => join(tmp, entry.name))
      : [];
    const directory = projects.length === 1 ? projects[0] : tmp;
    const files = (projects.length === 1 ? [directory] : projects).flatMap((dir) =>
      readdirSync(dir)
        .filter((name) => name.endsWith('.output'))
        .map((name) => join(dir, name)),
    );
    return { directory, files: files.sort() };
  },
};

/**
 * A user skill of Qwen Code under `$QWEN_HOME/skills` (SKILL_NAME_PATTERN is the shared rule).
 * Qwen Code lists the user skills (name and description) to the model and gives a skill's body,
 * with the directory it is in, only through its `skill` tool. It watches that directory and lists
 * a skill added while a process runs in a reminder before the next turn, once its watcher has
 * refreshed (150 ms after the change): while a process runs, the answer waits a second for that.
 */
async function defineSkill(c) {
  writeSkill(join(config.home, 'skills'), c, 'Qwen Code');
  if ([...live.values()].some((state) => !state.process.exited))
    await new Promise((resolve) => setTimeout(resolve, 1_000));
}

/**
 * The session runs as `agent` from its next provider turn: a process that runs takes the agent's
 * rules at once (applyAgent), one started later reads them with its settings.
 */
async function selectAgent(sessionId, agent) {
  if (agent !== DEFAULT_AGENT && !defined(agent)) throw new Refusal('not-found', `no agent ${agent}`);
  const found = record(sessionId);
  found.agent = agent;
  saveRecords();
  const state = live.get(sessionId);
  if (state && !state.process.exited) await applyAgent(state, agent);
}

/** Settings are read when a session opens: configured budgets close the open sessions, which open again when next used. */
async function restartAll() {
  saveSettings();
  for (const [id, state] of [...live]) {
    await state.process.idle();
    live.delete(id);
    await retire([state.process]);
  }
}

function terminate() {
  for (const state of live.values()) state.process.kill();
  spare?.kill();
  links?.remove();
}
process.on('exit', terminate);
for (const signal of ['SIGTERM', 'SIGINT']) process.on(signal, () => process.exit(0));

serveStdio({
  runtime: 'Qwen Code',
  hello,
  commands,
  unsupported: UNSUPPORTED,
  end: () => Promise.all([...[...live.values()].map((state) => state.process), spare].map((qwen) => qwen?.stop())),
});
