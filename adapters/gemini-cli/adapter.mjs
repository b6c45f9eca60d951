import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { EmulatedAnswer, PROTOCOL, Refusal, serveStdio } from '../../harness/adapter/stdio-serve.mjs';
import { storeReads } from '../../harness/adapter/store-reads.mjs';
import { AcpProcess } from './acp-process.mjs';
import { findChatFile, readRecords, toKitCompactions, toKitEvents, toKitFailures, toKitHistory } from './chat-file.mjs';
import { geminiSettings } from './settings.mjs';

/**
 * A `session-runtime-adapter/1` adapter driving the published Gemini CLI (`@google/gemini-cli`)
 * through its Agent Client Protocol interface: one `gemini --acp` process per opened runtime,
 * serving every session (`session/new` in the session's location, `session/load` after a
 * restart), with each session's chat file as the durable store. Newline-delimited JSON on stdin
 * and stdout; everything else goes to stderr.
 */

const VERSION = JSON.parse(
  readFileSync(new URL('./node_modules/@google/gemini-cli/package.json', import.meta.url), 'utf8'),
).version;

const diagnostics = [];
let config;
let records = {};
let recordFile;
/** Per kit session: { uuid, opening, running: Set<Promise>, held: string[] }. */
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
  'session.run': 'submits the held prompts and nothing else: Gemini CLI has no way to go on without new input',
  'session.wake': 'submits the held prompts and nothing else: Gemini CLI starts no work when a session opens',
  'session.idle': 'every session/prompt request the adapter sent has its response',
  events: "the chat file's lines, numbered by their position in the file",
  'events.subscribe': 'a cursor the adapter keeps over the chat file',
  'events.take': 'reads the chat file after the cursor the adapter keeps',
};

/** What of EMULATED Gemini CLI has no interface for at all. */
const ABSENT = ['prompt.admit.held', 'prompt.admit.receipt', 'session.run', 'session.wake'];

/** Commands Gemini CLI has no equivalent for, and why (adapters/gemini-cli/README.md says more). */
const UNSUPPORTED = {
  inbox: 'Gemini CLI keeps no inbox: a prompt sent while another runs cancels it',
  epoch: 'Gemini CLI keeps no context epoch: the system prompt is rebuilt whenever a session is opened',
  'agent.define': "the kit's agents do not map onto Gemini CLI's subagents, which the model calls as tools",
  'session.move': "Gemini CLI files a session's chat under its project directory; it has no move",
};

function hello(c) {
  if (c.provider.dialect !== 'gemini')
    throw new Refusal('unsupported', 'Gemini CLI speaks the Gemini API only');
  config = c;
  mkdirSync(c.home, { recursive: true });
  recordFile = join(c.storeDir, 'kit-sessions.json');
  records = existsSync(recordFile) ? JSON.parse(readFileSync(recordFile, 'utf8')) : {};
  const settingsFile = join(c.storeDir, 'kit-settings.json');
  settings = existsSync(settingsFile) ? JSON.parse(readFileSync(settingsFile, 'utf8')) : {};
  // Gemini CLI's global directory is `$GEMINI_CLI_HOME/.gemini`: it is the kit's home, so the
  // AGENTS.md there is the global instruction file.
  const geminiHome = join(c.storeDir, 'gemini-home');
  mkdirSync(geminiHome, { recursive: true });
  if (!existsSync(join(geminiHome, '.gemini'))) symlinkSync(c.home, join(geminiHome, '.gemini'));
  return {
    protocol: PROTOCOL,
    runtime: { name: 'gemini-cli', version: VERSION, language: 'typescript' },
    profiles: ['core'],
    capabilities: ['restart', 'process-reuse'],
    shell: { tool: 'run_shell_command', commandField: 'command', workdirField: 'dir_path' },
    texts: {
      // Gemini CLI opens every chat with its environment context, a user turn of its own.
      'system-message.fallback': '<session_context>\n{text}\n</session_context>',
      // A compression's summary is kept as a state snapshot.
      'compaction.summary-form': '<state_snapshot>\n{summary}\n</state_snapshot>',
    },
    emulated: EMULATED,
    absent: ABSENT,
    // Gemini CLI's system instruction and tool declarations weigh about 12,200 tokens of every request.
    limits: { requestOverheadTokens: 12_500 },
  };
}

function saveRecords() {
  writeFileSync(recordFile, JSON.stringify(records, null, 2));
}

function record(sessionId) {
  const found = records[sessionId];
  if (!found) throw new Refusal('not-found', `no session ${sessionId}`);
  return found;
}

const runtimeDir = () => join(config.storeDir, 'gemini-home', '.gemini');

function environment() {
  const env = { ...process.env };
  for (const key of Object.keys(env))
    if (/^(OPENAI|QWEN|DASHSCOPE|ANTHROPIC|GEMINI|GOOGLE|CLOUD_SDK|VERTEX)_/.test(key)) delete env[key];
  return {
    ...env,
    HOME: join(config.storeDir, 'gemini-home'),
    GEMINI_CLI_HOME: join(config.storeDir, 'gemini-home'),
    TMPDIR: join(config.storeDir, 'tmp'),
    // The kit's provider: Gemini CLI's gateway at the base URL without `/v1` (the Gemini SDK adds
    // its own API version, `/v1beta`).
    GOOGLE_GEMINI_BASE_URL: config.provider.baseUrl.replace(/\/v1\/?$/, ''),
    GEMINI_API_KEY: config.provider.apiKey,
    TZ: config.timeZone ?? 'UTC',
    GEMINI_CLI_NO_RELAUNCH: 'true',
    NO_COLOR: '1',
  };
}

/**
 * The session's live state, its `gemini --acp` process started in the session's location (its
 * shell tool runs in the process's working directory, not in `session/new`'s `cwd`), and its ACP
 * session opened: new, or loaded from its chat file.
 */
async function open(sessionId) {
  const found = record(sessionId);
  let state = live.get(sessionId);
  if (!state) {
    state = { running: new Set(), held: [], opened: undefined, child: undefined };
    live.set(sessionId, state);
  }
  if (state.child?.exited) state.opened = undefined;
  state.opened ??= (async () => {
    mkdirSync(join(config.storeDir, 'tmp'), { recursive: true });
    writeSettings();
    const child = new AcpProcess({
      cwd: found.location,
      env: environment(),
      args: ['--model', config.provider.model],
      onDiagnostic: (line) => diagnostics.push(line),
    });
    state.child = child;
    await child.request('initialize', {
      protocolVersion: 1,
      clientCapabilities: { fs: { readTextFile: false, writeTextFile: false }, terminal: false },
    });
    // Gemini CLI deletes, when its process ends, a chat with nothing resumable in it (no prompt
    // yet): such a session is opened anew.
    if (found.uuid && findChatFile(runtimeDir(), found.uuid)) {
      await child.request('session/load', { sessionId: found.uuid, cwd: found.location, mcpServers: [] });
    } else {
      const { sessionId: uuid } = await child.request('session/new', { cwd: found.location, mcpServers: [] });
      found.uuid = uuid;
      saveRecords();
    }
    if (found.model) await child.request('session/set_model', { sessionId: found.uuid, modelId: found.model });
    return child;
  })();
  await state.opened;
  return state;
}

/** Gemini CLI's settings and the policy that lets the shell run without asking (redirections too). */
function writeSettings() {
  writeFileSync(join(runtimeDir(), 'settings.json'), JSON.stringify(geminiSettings(settings), null, 2));
  mkdirSync(join(runtimeDir(), 'policies'), { recursive: true });
  writeFileSync(join(runtimeDir(), 'policies', 'kit-build-agent.toml'), SHELL_POLICY);
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
    part.type === 'text' ? { type: 'text', text: part.text } : { type: 'image', mimeType: part.mimeType, data: part.data },
  );
}

/** Sends one prompt: it runs until its session/prompt request is answered. */
function send(state, sessionId, parts) {
  const { uuid } = record(sessionId);
  const run = state.child
    .request('session/prompt', { sessionId: uuid, prompt: parts })
    .catch((error) => diagnostics.push(`session/prompt: ${error.message}`))
    .finally(() => state.running.delete(run));
  state.running.add(run);
  return run;
}

let admitted = 0;

async function admit(c) {
  if (c.delivery !== undefined && c.delivery !== 'steer' && c.delivery !== 'queue') {
    throw new Refusal('invalid-input', `delivery must be steer or queue, not ${JSON.stringify(c.delivery)}`);
  }
  const state = await open(c.sessionId);
  const busy = state.running.size > 0;
  if (busy && c.delivery !== undefined) {
    throw new Refusal(
      'unsupported',
      `Gemini CLI neither steers nor queues a prompt sent while a turn runs: session/prompt cancels the running prompt (delivery ${c.delivery})`,
    );
  }
  const messageId = c.id ?? `prompt_${config.instance}_${++admitted}`;
  const parts = promptParts(c.prompt);
  if (c.resume === false && !busy) {
    state.held.push(parts);
    return new EmulatedAnswer({ messageId, state: 'pending', duplicate: false }, [
      'prompt.admit.held',
      'prompt.admit.receipt',
    ]);
  }
  send(state, c.sessionId, parts);
  return new EmulatedAnswer({ messageId, state: 'promoted', duplicate: false }, ['prompt.admit.receipt']);
}

async function submitHeld(sessionId) {
  const state = live.get(sessionId);
  if (!state?.held.length) return;
  await open(sessionId);
  for (const parts of state.held.splice(0)) send(state, sessionId, parts);
}

async function idle(sessionId) {
  const state = live.get(sessionId);
  while (state && state.running.size > 0) await Promise.allSettled([...state.running]);
}

const entries = (sessionId) => readRecords(findChatFile(runtimeDir(), record(sessionId).uuid));

const commands = {
  'session.create': async (c) => {
    const sessionId = c.id ?? `session_${config.instance}_${Object.keys(records).length + 1}`;
    if (records[sessionId]) return { sessionId, created: false };
    records[sessionId] = { location: c.location };
    saveRecords();
    await open(sessionId);
    return { sessionId, created: true };
  },
  'prompt.admit': admit,
  'session.run': async (c) => {
    record(c.sessionId);
    await submitHeld(c.sessionId);
  },
  'session.wake': async (c) => {
    record(c.sessionId);
    await submitHeld(c.sessionId);
  },
  'session.idle': async (c) => {
    record(c.sessionId);
    await idle(c.sessionId);
  },
  'session.interrupt': async (c) => {
    const { uuid } = record(c.sessionId);
    const state = live.get(c.sessionId);
    if (!state?.running.size) return;
    state.child.notify('session/cancel', { sessionId: uuid });
    await idle(c.sessionId);
  },
  'session.select': async (c) => {
    if (typeof c.agent === 'string') throw new Refusal('unsupported', UNSUPPORTED['agent.define']);
    if (c.model === undefined) return;
    const found = record(c.sessionId);
    found.model = c.model ?? undefined;
    saveRecords();
    const state = live.get(c.sessionId);
    if (state?.child && !state.child.exited)
      await state.child.request('session/set_model', {
        sessionId: found.uuid,
        modelId: c.model ?? config.provider.model,
      });
  },
  'permission.pending': (c) => {
    const { uuid } = record(c.sessionId);
    const requests = [...(live.get(c.sessionId)?.child?.permissions.values() ?? [])].filter(
      (request) => request.sessionId === uuid,
    );
    return { requests: requests.map(({ id, title }) => ({ id, tool: title, agent: DEFAULT_AGENT })) };
  },
  'permission.wait': async (c) => {
    const { uuid } = record(c.sessionId);
    const state = live.get(c.sessionId);
    const child = state?.child;
    const waiting = () => [...(child?.permissions.values() ?? [])].some((request) => request.sessionId === uuid);
    if (waiting()) return;
    if (!child || !state?.running.size)
      throw new Refusal('conflict', 'the session has no work left and no tool call awaits permission');
    const asked = await new Promise((resolve) => {
      const listener = (request) => {
        if (request.sessionId !== uuid) return;
        child.permissionListeners.delete(listener);
        resolve(true);
      };
      child.permissionListeners.add(listener);
      idle(c.sessionId).then(() => {
        child.permissionListeners.delete(listener);
        resolve(waiting());
      });
    });
    if (!asked) throw new Refusal('conflict', 'the session has no work left and no tool call awaits permission');
  },
  'permission.reply': (c) => {
    for (const state of live.values()) if (state.child?.answerPermission(c.id, c.approve)) return;
    throw new Refusal('not-found', `no tool call awaits permission as ${c.id}`);
  },
  'compaction.configure': async (c) => {
    settings.compaction = c;
    await restart();
  },
  'tool-output.configure': async (c) => {
    settings.toolOutput = c;
    await restart();
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
    await stop();
    live.clear();
    subscriptions.clear();
    diagnostics.length = 0;
    config = undefined;
  },
};

/** The names Gemini CLI accepts for a skill directory. */
const SKILL_NAME = /^[\p{L}\p{N}_:.-]+$/u;

/**
 * A user skill of Gemini CLI: `<home>/.gemini/skills/<directory>/SKILL.md`, its name and
 * description in the front matter, its body after it; the directory is named by the last segment
 * of the kit's `location`, or by the skill's name. Skills are discovered when a session's
 * configuration is loaded (session/new, session/load).
 */
function defineSkill(c) {
  if (!SKILL_NAME.test(c.name) || /^\.+$/.test(c.name))
    throw new Refusal('unsupported', `Gemini CLI skill names here are letters, digits, _, :, . and - only, not ${JSON.stringify(c.name)}`);
  const skills = join(config.home, 'skills');
  const directory = (c.location && basename(c.location).replace(/[^\p{L}\p{N}_.-]/gu, '-')) || c.name;
  const front = `name: ${JSON.stringify(c.name)}\n`;
  for (const entry of existsSync(skills) ? readdirSync(skills) : []) {
    const manifest = join(skills, entry, 'SKILL.md');
    if (entry !== directory && existsSync(manifest) && readFileSync(manifest, 'utf8').includes(`\n${front}`))
      rmSync(join(skills, entry), { recursive: true, force: true });
  }
  mkdirSync(join(skills, directory), { recursive: true });
  writeFileSync(join(skills, directory, 'SKILL.md'), `---\n${front}description: ${JSON.stringify(c.description)}\n---\n${c.body}\n`);
}

async function stop() {
  await Promise.all([...live.values()].map((state) => state.child?.stop()));
  for (const state of live.values()) {
    state.opened = undefined;
    state.child = undefined;
  }
}

/** Settings are read when the process starts: a configured budget restarts it, sessions reloaded on use. */
async function restart() {
  writeFileSync(join(config.storeDir, 'kit-settings.json'), JSON.stringify(settings));
  for (const id of live.keys()) await idle(id);
  await stop();
}

serveStdio({
  runtime: 'Gemini CLI',
  hello,
  commands,
  unsupported: UNSUPPORTED,
  end: stop,
  endNow: () => {
    for (const state of live.values()) state.child?.kill();
  },
});
