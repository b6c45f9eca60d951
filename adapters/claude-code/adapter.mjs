import { createHash, randomUUID } from 'node:crypto';
import {
  existsSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  realpathSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { EmulatedAnswer, PROTOCOL, Refusal, serveStdio } from '../../harness/adapter/stdio-serve.mjs';
import { storeReads } from '../../harness/adapter/store-reads.mjs';
import { GateBoard, KIT_TOOLS } from '../../harness/adapter/kit-tools.mjs';
import { ClaudeProcess } from './claude-process.mjs';
import { contributionServer, KIT_SERVER, kitServer } from './kit-server.mjs';
import { readRows, toKitCompactions, toKitEpoch, toKitEvents, toKitFailures, toKitHistory } from './transcript.mjs';

/**
 * A `session-runtime-adapter/1` adapter driving the published Claude Code
 * (`@anthropic-ai/claude-code`, a native binary in a platform package): one
 * `claude -p --input-format stream-json --output-format stream-json` process per kit session,
 * its JSONL transcript under the kit's store, the kit's fake provider as its Anthropic API.
 * Newline-delimited JSON on stdin and stdout; everything else goes to stderr.
 */

const require = createRequire(import.meta.url);
const PLATFORM_PACKAGE = `@anthropic-ai/claude-code-${process.platform}-${process.arch}`;
const binary = join(dirname(require.resolve(`${PLATFORM_PACKAGE}/package.json`)), 'claude');
const { version } = require('@anthropic-ai/claude-code/package.json');

/**
 * Every outside call Claude Code can make, switched off: telemetry, error reports, the
 * auto-updater, feature flags and the rest of its non-essential traffic. The only connection a
 * run opens is to the kit's loopback provider (checked with `strace -f -e trace=connect`).
 */
const OFFLINE = {
  CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
  DISABLE_AUTOUPDATER: '1',
  DISABLE_UPDATES: '1',
  DISABLE_TELEMETRY: '1',
  DISABLE_ERROR_REPORTING: '1',
  DISABLE_GROWTHBOOK: '1',
  DISABLE_INSTALLATION_CHECKS: '1',
  CLAUDE_CODE_DISABLE_FEATURE_FLAGS: '1',
  CLAUDE_CODE_DISABLE_FEEDBACK_SURVEY: '1',
  CLAUDE_CODE_DISABLE_WEB_FETCH: '1',
  CLAUDE_CODE_ENABLE_TELEMETRY: '0',
};

/** Claude Code's default bashOutputMaxChars: the characters of Bash output it keeps inline. */
const BASH_OUTPUT_MAX_CHARS = 30_000;

const diagnostics = [];
const log = (line) => {
  diagnostics.push(line);
  process.stderr.write(`${line}\n`);
};

let config;
const live = new Map();
const subscriptions = new Map();
/** The gates the kit's `gate` tool waits on, opened by `gate.open`. */
let gates = new GateBoard();

/** `<storeDir>/kit-sessions.json`: each kit session's Claude Code session ID and location. */
const sessionsFile = () => join(config.storeDir, 'kit-sessions.json');
function readSessions() {
  return existsSync(sessionsFile()) ? JSON.parse(readFileSync(sessionsFile(), 'utf8')) : {};
}
function session(id) {
  const found = readSessions()[id];
  if (!found) throw new Refusal('not-found', `no session ${id}`);
  return found;
}

const configDir = () => join(config.storeDir, 'claude');

/**
 * `<storeDir>/kit-skills.json`: each skill skill.define defined, by name, with its location (null
 * for none), description and body. A skill without a location is a personal skill,
 * `<config dir>/skills/<name>/SKILL.md`. One with a location is a project skill of a folder that
 * mirrors the location's path inside each session's working directory
 * (`<cwd>/.kit-skill-locations/<location>/.claude/skills/<name>/SKILL.md`), given to the session's
 * process with `--add-dir`: Claude Code reads the `.claude/skills` folder of every directory added
 * so, and names a skill after its own folder, so only a folder above it can carry the location's
 * name. Inside the working directory, as Claude Code tells the model of an added directory outside
 * it ("Additional working directories:" in the first request), and of none inside it
 * (`alreadyInWorkingDirectory`), whose skills it reads all the same.
 */
const skillsFile = () => join(config.storeDir, 'kit-skills.json');
function readSkills() {
  return existsSync(skillsFile()) ? JSON.parse(readFileSync(skillsFile(), 'utf8')) : {};
}
/** The folder of a skill location in working directory `cwd`: the location's path below `.kit-skill-locations`. */
function locationDir(cwd, location) {
  const segments = location.split(/[\\/]+/).filter((segment) => segment !== '' && segment !== '.' && segment !== '..');
  return join(cwd, '.kit-skill-locations', ...segments);
}
/** The folders of a skill's SKILL.md: a personal skill's, or its location's in each session's working directory. */
function skillDirs(name, location) {
  if (location === null) return [join(configDir(), 'skills', name)];
  const cwds = new Set(Object.values(readSessions()).map((found) => found.location));
  return [...cwds].map((cwd) => join(locationDir(cwd, location), '.claude', 'skills', name));
}
/**
 * Writes the skills kept in a location into working directory `cwd`, and returns the folders a
 * process there adds (`--add-dir`). A file is written only where it differs: a running process
 * watches its skill folders and reloads them on a change.
 */
function placeSkills(cwd) {
  const added = new Set();
  for (const [name, skill] of Object.entries(readSkills())) {
    if (skill.location === null) continue;
    added.add(locationDir(cwd, skill.location));
    writeSkill(join(locationDir(cwd, skill.location), '.claude', 'skills', name), name, skill);
  }
  return [...added].sort();
}
function writeSkill(dir, name, { description, body }) {
  const file = join(dir, 'SKILL.md');
  const text = `---\nname: ${name}\ndescription: ${description}\n---\n\n${body}\n`;
  if (existsSync(file) && readFileSync(file, 'utf8') === text) return;
  mkdirSync(dir, { recursive: true });
  writeFileSync(file, text);
}

/** `<storeDir>/kit-compaction.json`: the budget compaction.configure set, read by every process started after it. */
const compactionFile = () => join(config.storeDir, 'kit-compaction.json');
function compactionSettings() {
  return existsSync(compactionFile()) ? JSON.parse(readFileSync(compactionFile(), 'utf8')) : undefined;
}

/**
 * `<storeDir>/kit-host-env.json`: the variables of the host environment the kit set (host.env.set),
 * a null value for one it unset, read by every process started after it.
 */
const hostEnvFile = () => join(config.storeDir, 'kit-host-env.json');
function hostEnv() {
  return existsSync(hostEnvFile()) ? JSON.parse(readFileSync(hostEnvFile(), 'utf8')) : {};
}

/**
 * A switch of the host environment another runtime reads that Claude Code has under a form of its
 * own: OpenCode's variable that turns project configuration and instruction discovery off is Claude
 * Code's setting sources without `project` (`--setting-sources user,local`), which reads neither
 * the project's CLAUDE.md or AGENTS.md nor its `.claude/settings.json`, and keeps the user's
 * CLAUDE.md and the project's local settings.
 */
const PROJECT_CONFIG_OFF = 'OPENCODE_DISABLE_PROJECT_CONFIG';
function settingSources() {
  const off = hostEnv()[PROJECT_CONFIG_OFF];
  return off !== undefined && off !== null && off !== '' ? ['--setting-sources', 'user,local'] : [];
}

/** `<storeDir>/kit-contributions.json`: per location, the tools contributed under each key, with their answers. */
const contributionsFile = () => join(config.storeDir, 'kit-contributions.json');
function readContributions() {
  return existsSync(contributionsFile()) ? JSON.parse(readFileSync(contributionsFile(), 'utf8')) : {};
}
const samePlace = (a, b) => (existsSync(a) ? realpathSync(a) : a) === (existsSync(b) ? realpathSync(b) : b);

/**
 * The MCP servers the adapter hosts for a session's process: the kit's tools, run where the session
 * is now (set_cwd may have moved it since the start), and one server per tool contribution of its
 * location.
 */
function serversFor(id) {
  const { location } = session(id);
  const contributed = Object.entries(readContributions())
    .filter(([place]) => samePlace(place, location))
    .flatMap(([, contributions]) => Object.entries(contributions));
  return [
    kitServer(() => ({ location: session(id).location, gates })),
    ...contributed.map(([key, { tools, answers }]) => contributionServer(key, tools, answers)),
  ];
}

/**
 * A tool contribution registered or closed: kept in kit-contributions.json for the processes that
 * start later, and sent to each running process of a session at the location (mcp_set_servers).
 */
async function contribute(location, contribution, tools, answers) {
  const contributions = readContributions();
  contributions[location] ??= {};
  const place = contributions[location];
  if (tools === undefined) delete place[contribution];
  else place[contribution] = { tools, ...(answers ? { answers } : {}) };
  writeFileSync(contributionsFile(), JSON.stringify(contributions, null, 2));
  await Promise.all(
    [...live.entries()]
      .filter(([id, running]) => !running.exited && samePlace(session(id).location, location))
      .map(([id, running]) => running.setServers(serversFor(id))),
  );
}

/** `<storeDir>/kit-agents.json`: the agents agent.define defined, by name, as the kit gave them. */
const agentsFile = () => join(config.storeDir, 'kit-agents.json');
function readAgents() {
  return existsSync(agentsFile()) ? JSON.parse(readFileSync(agentsFile(), 'utf8')) : {};
}

/**
 * The seeds' default agent. Claude Code has none: a process started without `--agent` runs as no
 * agent, under its own permission defaults. Once the kit defines an agent of this name, a session
 * that selects none runs as it (`--agent`): that choice is the adapter's, and the answer of the
 * `agent.define` that defines it says so (`agent.define.default`), so no verdict about the agents'
 * rules rests on it. It gets no rule the kit did not give it.
 */
const DEFAULT_AGENT = 'build';

/** The agent a session's process runs as: the one it selected, else the default once defined. */
function agentOf(selected) {
  return selected ?? (Object.hasOwn(readAgents(), DEFAULT_AGENT) ? DEFAULT_AGENT : undefined);
}

/**
 * What Claude Code is started with for the agent a session's process runs as. Until the kit defines
 * an agent or a session selects one, nothing asks: permissions are bypassed, as they were before
 * agents were mapped. From then on the kit's agents are Claude Code agents (`--agents`, each with an
 * empty prompt, so Claude Code keeps its own system prompt, and the tools the kit denies as
 * `disallowedTools`), the session's selected one is its main agent (`--agent`, named on every
 * start, since `--resume` would otherwise take the one the transcript last ran), and the agent's
 * rules per tool are the permission rules of the process's settings (`permissions.allow`, `deny`,
 * `ask`; a denied skill `Skill(<name>)`, and left out of the main session's skills allowlist,
 * which Claude Code's skill listing follows: see skillAllowlist).
 * A session that selected none runs as the default agent once the kit defined it, else as no
 * agent, its calls meeting Claude Code's own permission defaults. The process then runs in Claude Code's default permission mode and asks
 * the adapter (`--permission-prompt-tool stdio`) about each call its rules, or its defaults, leave
 * open.
 */
function agentArguments(name, selected) {
  const agents = readAgents();
  // Selecting the default agent before any is defined selects what a session with none runs as.
  if (Object.keys(agents).length === 0 && (!selected || selected === DEFAULT_AGENT))
    return [
      '--settings',
      JSON.stringify({ ...flagSettings(), permissions: READ_BOUNDARY }),
      '--permission-mode',
      'bypassPermissions',
    ];
  const permissions = { ...permissionRules(name), ...READ_BOUNDARY };
  const definitions = Object.fromEntries(
    [...new Set([...(name === undefined ? [] : [name]), ...Object.keys(agents)])].map((agent) => [
      agent,
      {
        description: `The kit's agent ${agent}`,
        prompt: '',
        disallowedTools: Object.entries(agents[agent]?.tools ?? {})
          .filter(([, rule]) => rule === 'deny')
          .map(([tool]) => ruleName(tool)),
      },
    ]),
  );
  return [
    '--agents',
    JSON.stringify(definitions),
    ...(name === undefined ? [] : ['--agent', name]),
    '--settings',
    JSON.stringify({ ...flagSettings(), permissions }),
    '--permission-mode',
    'default',
    '--permission-prompt-tool',
    'stdio',
  ];
}

/**
 * The agent's rules per tool as Claude Code's permission rules (`permissions.allow`, `deny`, `ask`;
 * a denied skill `Skill(<name>)`), the kit tools allowed unless the kit rules otherwise.
 */
function permissionRules(name) {
  const agents = readAgents();
  // The kit's tools are allowed unless the agent rules otherwise (an unlisted tool is allowed):
  // Claude Code asks about an MCP server's tools by default.
  const kitTools = Object.fromEntries(KIT_TOOLS.map((tool) => [tool.name, 'allow']));
  const rules = { ...kitTools, ...agents[name]?.tools };
  const permissions = { allow: [], deny: [], ask: [] };
  for (const [tool, rule] of Object.entries(rules)) permissions[rule].push(ruleName(tool));
  for (const [skill, rule] of Object.entries(agents[name]?.skills ?? {}))
    if (rule === 'deny') permissions.deny.push(`Skill(${skill})`);
  return permissions;
}

/**
 * The skills the main session of agent `name` may load, as the SDK host's `skills` allowlist of the
 * `initialize` request, which Claude Code's skill listing and its Skill tool both honour: every
 * skill defined but those the agent denies. Undefined (every skill) where it denies none.
 */
function skillAllowlist(name) {
  const denied = Object.entries(readAgents()[name]?.skills ?? {}).flatMap(([skill, rule]) =>
    rule === 'deny' ? [skill] : [],
  );
  if (denied.length === 0) return undefined;
  return Object.keys(readSkills()).filter((skill) => !denied.includes(skill));
}

/**
 * The name a permission rule gives a tool: Claude Code matches the tools of an MCP server the
 * adapter hosts by their prefixed name (`mcp__<server>__<tool>`) only, though it offers them to
 * the model unprefixed (CLAUDE_AGENT_SDK_MCP_NO_PREFIX); a rule naming `gate` alone matches nothing.
 */
function ruleName(tool) {
  return KIT_TOOLS.some(({ name }) => name === tool) ? `mcp__${KIT_SERVER}__${tool}` : tool;
}

/**
 * The process's flag settings (`--settings`) beside the permission rules:
 * - the kit's models as the options of Claude Code's model picker (the `modelPicker` setting), the
 *   models this user's configuration offers: Claude Code's `set_model` takes a model its picker
 *   offers as it is, where it would first check any other with a provider request of its own;
 * - the windows compaction.configure set, as Claude Code's `autoCompactWindow` and, per model,
 *   `modelSettings.<model>.autoCompactWindow`, which Claude Code resolves for the model of each
 *   turn itself, a model switched while a turn runs (set_model) included.
 */
function flagSettings() {
  const models = [...new Set([config.provider.model, ...(config.provider.models ?? [])])];
  const set = compactionSettings();
  return {
    modelPicker: { options: models.map((model) => ({ model })) },
    ...(set
      ? {
          autoCompactWindow: set.contextWindow,
          modelSettings: Object.fromEntries(
            Object.entries(set.modelWindows ?? {}).map(([model, window]) => [model, { autoCompactWindow: window }]),
          ),
        }
      : {}),
  };
}

/**
 * Claude Code's own boundary for its file tools, which the program that starts it sets in
 * `--settings` (`permissions.blockFileToolReadsOutsideWorkingDirectories`): Read, Grep and Glob
 * refuse a path outside the working directory, or one whose links lead out of it, in every
 * permission mode, bypassed ones included, while its own files (this session's in its
 * configuration folder) stay readable and shell commands are not limited. Without it a read
 * outside the location is allowed or asked about by the permission mode the adapter chose.
 */
const READ_BOUNDARY = { blockFileToolReadsOutsideWorkingDirectories: true };

/** Claude Code's transcript path: the project folder is the working directory with every non-alphanumeric character a dash. */
function transcript(id) {
  const { uuid, location } = session(id);
  return join(configDir(), 'projects', location.replace(/[^a-zA-Z0-9]/g, '-'), `${uuid}.jsonl`);
}
const rowsOf = (id) => readRows(transcript(id));

function hello(kitConfig) {
  if (kitConfig.provider.dialect !== 'anthropic-messages')
    throw new Refusal(
      'unsupported',
      'Claude Code speaks only the Anthropic Messages API: run the kit with KIT_DIALECT=anthropic-messages',
    );
  config = kitConfig;
  mkdirSync(configDir(), { recursive: true });
  mkdirSync(config.home, { recursive: true });
  // Claude Code reads the user's global instructions from CLAUDE.md in its configuration
  // directory; the kit writes them to AGENTS.md in `home`.
  const global = join(configDir(), 'CLAUDE.md');
  if (!lstatSync(global, { throwIfNoEntry: false })) symlinkSync(join(config.home, 'AGENTS.md'), global);
  return {
    protocol: PROTOCOL,
    runtime: { name: 'claude-code', version, language: 'typescript' },
    profiles: ['core'],
    capabilities: [
      'restart',
      'kit-tools',
      'manual-compaction',
      'process-reuse',
      'host-env',
      'tool-contributions',
      'history-paging',
    ],
    shell: { tool: 'Bash', commandField: 'command' },
    // Claude Code's file reader takes an absolute `file_path`, its range of lines a 1-based `offset`
    // and a `limit`; its reach is Claude Code's own boundary (READ_BOUNDARY).
    read: { tool: 'Read', pathField: 'file_path', absolutePaths: true },
    // Claude Code's skill tool takes the skill's name in its `skill` field.
    skill: { tool: 'Skill', nameField: 'skill' },
    texts: {
      'prompt.default-delivery': 'steer',
      // A prompt the user sends mid-turn reaches the model as Claude Code's own note around it, beside
      // the next tool result (its queued_user framing, gmt and WQe in the bundle).
      'prompt.steer-framing':
        'The user sent a new message while you were working:\n{text}\n\nThis is how Claude Code surfaces messages the user sends mid-turn \u2014 within the running turn, often alongside the next tool result, rather than as a separate conversation turn. Address the message above as you continue this turn.',
      // Claude Code writes an approval's permission updates for the project's local settings to
      // .claude/settings.local.json in the session's directory, which every later session there reads.
      'approval.saved-for-project': 'yes',
      // Claude Code takes a compaction's summary from the <summary> block of the model's reply, and
      // asks once more when the reply has none.
      'compaction.summary-form': '<summary>\n{summary}\n</summary>',
      // Its notices on instruction files that differ, or are gone, when it reads them again (at a
      // start, after a compaction): the `instructions` attachment's rendering (Jrs in the bundle).
      'instructions.supersession':
        'Instruction files were re-read when this session started; these differ from their earlier copies',
      'instructions.revocation': 'Instructions no longer present: ',
      // Attribution Claude Code builds per request from its version and the first prompt and leaves
      // out of its own cache prefix and recorded request shape (CLAUDE_CODE_ATTRIBUTION_HEADER).
      'request.preamble': 'x-anthropic-billing-header:',
    },
    emulated: EMULATED,
    absent: ABSENT,
    // Bash output past bashOutputMaxChars (30000 characters unless set) goes to a file; the
    // setting counts characters and clamps to 4000..128000, so the kit's limits cannot be set.
    // It is Bash's own: an MCP tool's result is bounded at another threshold, as JSON.
    limits: {
      toolOutput: { maxChars: BASH_OUTPUT_MAX_CHARS, tool: 'Bash' },
      // Claude Code's auto-compact window is 100000 tokens at least, and it keeps 20000 of it for
      // a summary's output.
      leastContextWindow: LEAST_AUTO_COMPACT_WINDOW,
      summaryOutputTokens: SUMMARY_RESERVE,
      // Its system prompt and tool definitions, measured on a first request (characters / 4).
      requestOverheadTokens: REQUEST_OVERHEAD_TOKENS,
    },
  };
}

/** What this adapter computes itself because Claude Code has no such notion. */
const EMULATED = {
  'session.create':
    'the adapter keeps kit session IDs, locations and the Claude Code session UUID it starts each with (--session-id) in kit-sessions.json',
  'prompt.admit.receipt':
    "the receipt is the adapter's: Claude Code answers a stream-json user message with none; the kit's message ID goes as the message's uuid, which Claude Code keeps and skips when it comes again",
  'session.run':
    'only opens the process (--resume when the transcript exists): Claude Code starts a turn only for a user message that queries',
  'session.wake':
    'only opens the process: Claude Code has no wake, and a prompt it holds (shouldQuery false) goes out only merged into the next user message that queries',
  'agent.define.default':
    'a session that selects no agent runs as the agent build (--agent) once the kit defined it: Claude Code has no default agent',
  events: "the transcript's rows, numbered by their line in the file: Claude Code keeps no event sequence",
  'events.subscribe': 'a cursor the adapter keeps over the transcript',
  'events.take': 'reads the transcript after the cursor the adapter keeps',
  'instructions.global': "home's AGENTS.md is linked as CLAUDE.md in Claude Code's configuration directory",
  'compaction.configure.reserve':
    "the threshold Claude Code compacts at is the adapter's: the least window the kit set less the larger of output allowance and buffer, as the share CLAUDE_AUTOCOMPACT_PCT_OVERRIDE names, which Claude Code applies to each model's window; Claude Code's own reserve is its summary reserve plus a fixed 13000-token buffer, added up, and it has no setting of a compaction buffer",
  'history-paging':
    "the page is the tail, before the given message, of the adapter's projection of the transcript (what history returns): Claude Code pages only cloud sessions' transcripts (get_cloud_session_transcript)",
};

/**
 * What of EMULATED Claude Code has no interface for at all: no run without new input, no wake; a
 * rule about one is not implemented.
 */
const ABSENT = ['session.run', 'session.wake'];

/** How many provider turns one drain may take (seed 000, RUN-02). */
const PROVIDER_TURN_ALLOWANCE = 25;

function environment() {
  const env = { ...process.env, ...OFFLINE };
  for (const name of Object.keys(env))
    if (name.startsWith('ANTHROPIC_') || name.startsWith('CLAUDE_')) delete env[name];
  env.TZ = config.timeZone ?? 'UTC';
  // The kit's host.env.set: Claude Code reads its environment when its process starts.
  for (const [name, value] of Object.entries(hostEnv()))
    if (value === null) delete env[name];
    else env[name] = value;
  return {
    ...env,
    ...OFFLINE,
    HOME: config.home,
    CLAUDE_CONFIG_DIR: configDir(),
    TMPDIR: join(config.storeDir, 'tmp'),
    ANTHROPIC_API_KEY: config.provider.apiKey,
    // The Anthropic SDK appends /v1/messages itself.
    ANTHROPIC_BASE_URL: config.provider.baseUrl.replace(/\/v1\/?$/, ''),
    // The kit's run is a sandbox without internet: Claude Code lets root bypass permissions there.
    IS_SANDBOX: '1',
    CLAUDE_CODE_EMIT_SESSION_STATE_EVENTS: '1',
    // The tools of the MCP servers the adapter hosts (the kit's) are offered under their own names,
    // not as mcp__<server>__<tool>.
    CLAUDE_AGENT_SDK_MCP_NO_PREFIX: '1',
    // A failed provider request fails at once: the retry rules (RTY) belong to profile sol, which
    // this adapter does not declare, and Claude Code's retries wait out real backoff delays.
    CLAUDE_CODE_MAX_RETRIES: '0',
    ...compactionEnvironment(),
  };
}

/** The smallest auto-compact window Claude Code accepts (its `autoCompactWindow` setting, CLAUDE_CODE_AUTO_COMPACT_WINDOW). */
const LEAST_AUTO_COMPACT_WINDOW = 100_000;
/**
 * What Claude Code keeps free of its auto-compact window for a summary's output: the smaller of the
 * model's output limit and 20000 tokens. The threshold is the window less this, scaled by
 * CLAUDE_AUTOCOMPACT_PCT_OVERRIDE.
 */
const SUMMARY_RESERVE = 20_000;
/** What a first request of Claude Code weighs beyond its conversation, in tokens of four characters. */
const REQUEST_OVERHEAD_TOKENS = 12_500;

/**
 * The kit's reserve as Claude Code's threshold (emulated, `compaction.configure.reserve`): Claude
 * Code keeps a reserve of its own (its summary reserve and a fixed 13000-token buffer, added up)
 * and has no setting of a buffer, only CLAUDE_AUTOCOMPACT_PCT_OVERRIDE, the share of the window
 * less its summary reserve at which it compacts. The adapter computes the share that puts the
 * threshold at the window less the larger of output allowance and buffer, for the least window
 * the kit set: one share serves every model, Claude Code applying it to the window of each turn's
 * model (flagSettings), so a larger window's threshold is that share of it.
 */
function compactionEnvironment() {
  const set = compactionSettings();
  if (!set) return {};
  const window = Math.min(set.contextWindow, ...Object.values(set.modelWindows ?? {}));
  const effective = window - SUMMARY_RESERVE;
  const threshold = window - Math.max(set.outputAllowance, set.buffer);
  const percent = Math.min(100, Math.max(0.01, (100 * threshold) / effective));
  return {
    CLAUDE_AUTOCOMPACT_PCT_OVERRIDE: percent.toFixed(4),
    ...(set.auto === false ? { DISABLE_AUTO_COMPACT: '1' } : {}),
  };
}

/** The session's process, started on first use: `--resume` when its transcript exists. */
function processOf(id) {
  const running = live.get(id);
  if (running && !running.exited) return running;
  const { uuid, location, model = config.provider.model, agent: selected, agentSelected } = session(id);
  const agent = agentOf(selected);
  mkdirSync(join(config.storeDir, 'tmp'), { recursive: true });
  const args = [
    '-p',
    '--input-format',
    'stream-json',
    '--output-format',
    'stream-json',
    // Claude Code echoes each user message once it takes it in: the session is idle only then.
    '--replay-user-messages',
    '--verbose',
    // The seeds' provider-turn allowance of a drain (RUN-02), through Claude Code's own cap, which it
    // counts from each prompt it takes in and has no default for.
    '--max-turns',
    String(PROVIDER_TURN_ALLOWANCE),
    '--model',
    model,
    ...agentArguments(agent, agentSelected === true),
    ...settingSources(),
    // The folders of the skills kept in a location, written into the working directory, whose
    // `.claude/skills` Claude Code reads.
    ...placeSkills(location).flatMap((dir) => ['--add-dir', dir]),
    ...(existsSync(transcript(id)) ? ['--resume', uuid] : ['--session-id', uuid]),
  ];
  const started = new ClaudeProcess({
    binary,
    args,
    cwd: location,
    env: environment(),
    log,
    servers: serversFor(id),
    skills: skillAllowlist(agent),
  });
  started.model = model;
  started.agent = agent;
  live.set(id, started);
  return started;
}

/**
 * The kit's message ID as the UUID of the stream-json user message: Claude Code skips a user
 * message whose UUID it has already taken, and stores the row under it.
 */
function messageUuid(messageId) {
  const hex = createHash('sha256').update(messageId).digest('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-8${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

function userMessage(prompt, delivery, uuid, { query = true } = {}) {
  const content = prompt.parts.map((part) =>
    part.type === 'image'
      ? { type: 'image', source: { type: 'base64', media_type: part.mediaType, data: part.data } }
      : { type: 'text', text: part.text },
  );
  return {
    type: 'user',
    message: { role: 'user', content },
    parent_tool_use_id: null,
    uuid,
    // Claude Code steers a message sent while a turn runs into that turn; `later` waits for it to end.
    ...(delivery === 'queue' ? { priority: 'later' } : {}),
    // Claude Code appends a message with shouldQuery false to the transcript without a turn, and
    // merges it into the next user message that queries.
    ...(query ? {} : { shouldQuery: false }),
  };
}

let admitted = 0;

async function admit(c) {
  if (c.delivery !== undefined && c.delivery !== 'steer' && c.delivery !== 'queue')
    throw new Refusal('invalid-input', `delivery must be steer or queue, not ${JSON.stringify(c.delivery)}`);
  session(c.sessionId);
  const messageId = c.id ?? `prompt_${config.instance}_${++admitted}`;
  const uuid = messageUuid(messageId);
  // A UUID already in the transcript is one Claude Code took in, and will skip; a row it keeps
  // without a turn (queueTranscriptOnly, from shouldQuery false) waits for a message that queries.
  const row = rowsOf(c.sessionId).find((kept) => kept.type === 'user' && kept.uuid === uuid);
  const running = live.get(c.sessionId);
  const busy = running && !running.settled();
  // `resume: false` while idle is Claude Code's own admission without a turn (shouldQuery false).
  const hold = c.resume === false && !busy;
  const message = userMessage(c.prompt, c.delivery, uuid, { query: !hold });
  const claude = processOf(c.sessionId);
  const queried = row === undefined ? claude.written.get(uuid) : row.queueTranscriptOnly !== true;
  const duplicate = queried !== undefined;
  // Claude Code skips a message whose UUID it holds.
  claude.send(message, { echoed: !duplicate });
  // Held, the prompt is admitted once Claude Code took it in and went idle again, its row written.
  if (hold) {
    await claude.idle();
    if (!rowsOf(c.sessionId).some((kept) => kept.uuid === uuid)) log(`held ${uuid}: no transcript row at idle`);
  }
  const pending = duplicate ? !queried : hold || busy;
  return new EmulatedAnswer({ messageId, state: pending ? 'pending' : 'promoted', duplicate }, [
    'prompt.admit.receipt',
  ]);
}

/**
 * Only opens the session (`--resume`): Claude Code starts a turn only for a user message that
 * queries, and does not go on with a turn a crash cut off; a prompt it holds (shouldQuery false)
 * waits for such a message.
 */
function run(id) {
  processOf(id);
}

/**
 * A switch while a turn runs, in the running process. The model: Claude Code's set_model control
 * request, which takes a model its picker offers (flagSettings) without a provider request of its
 * own. The agent: the apply_flag_settings control request, which merges settings into the
 * process's flag settings layer, where --settings put them: `agent` (one of --agents), whose
 * definition denies its disallowed tools. The permission rules stay the session's until the next
 * process: they are no part of a Claude Code agent, and Claude Code checks a call against them
 * when it starts, so swapping them would judge a call of the earlier turn by the new agent's.
 */
async function switchRunning(running, { model, agent }) {
  if (running.agent !== agent) {
    if (agent === undefined)
      throw new Refusal(
        'unsupported',
        "Claude Code's apply_flag_settings switches a running process to an agent, not back to none",
      );
    if (!Object.hasOwn(readAgents(), agent)) throw new Refusal('not-found', `no agent ${agent}`);
    await refusedAs(running.control({ subtype: 'apply_flag_settings', settings: { agent } }), 'apply_flag_settings');
    running.agent = agent;
  }
  if (running.model !== model) {
    await refusedAs(running.control({ subtype: 'set_model', model }), 'set_model');
    running.model = model;
  }
}

/** A control request Claude Code answers with an error, as the protocol's refusal quoting it. */
async function refusedAs(answer, subtype) {
  try {
    return await answer;
  } catch (error) {
    throw new Refusal('unsupported', `Claude Code refused the switch while a turn runs (${subtype}: ${error.message})`);
  }
}

/**
 * One page of the history: the `limit` messages before the message `before` (or the newest), in the
 * order of the transcript's current chain, as `history` projects it. Claude Code's own paged read
 * (`get_cloud_session_transcript`, `cursor` and `limit`) serves cloud sessions only.
 */
function historyPage({ sessionId, limit, before }) {
  session(sessionId);
  const messages = toKitHistory(rowsOf(sessionId));
  let end = messages.length;
  if (before !== undefined) {
    end = messages.findIndex((message) => message.id === before);
    if (end < 0) throw new Refusal('not-found', `no message ${before} in session ${sessionId}`);
  }
  return { messages: messages.slice(Math.max(0, end - limit), end) };
}

const commands = {
  'session.create': (c) => {
    const sessions = readSessions();
    if (sessions[c.id ?? '']) return { sessionId: c.id, created: false };
    const id = c.id ?? `session_${config.instance}_${Object.keys(sessions).length + 1}`;
    mkdirSync(c.location, { recursive: true });
    sessions[id] = { uuid: randomUUID(), location: c.location };
    writeFileSync(sessionsFile(), JSON.stringify(sessions, null, 2));
    return { sessionId: id, created: true };
  },
  'prompt.admit': admit,
  'session.run': (c) => run(c.sessionId),
  'session.wake': (c) => run(c.sessionId),
  'session.idle': async (c) => {
    session(c.sessionId);
    await live.get(c.sessionId)?.idle();
  },
  'session.select': async (c) => {
    if (c.model === undefined && c.agent === undefined) return;
    const sessions = readSessions();
    const found = sessions[c.sessionId];
    if (!found) throw new Refusal('not-found', `no session ${c.sessionId}`);
    const running = live.get(c.sessionId);
    const model = c.model === undefined ? (found.model ?? config.provider.model) : (c.model ?? config.provider.model);
    const agent = agentOf(c.agent === undefined ? found.agent : (c.agent ?? undefined));
    const restart = running && !running.exited && (running.model !== model || running.agent !== agent);
    // While a turn runs the switch goes to the running process (switchRunning), taken from its
    // next provider request on. Between turns the process ends instead (stdin closed), and the
    // next one starts with --model and --agent over --resume.
    const switched = restart && !running.settled();
    if (switched) await switchRunning(running, { model, agent });
    if (c.model !== undefined) {
      if (c.model === null) delete found.model;
      else found.model = c.model;
    }
    if (c.agent !== undefined) {
      found.agentSelected = true;
      if (c.agent === null) delete found.agent;
      else found.agent = c.agent;
    }
    writeFileSync(sessionsFile(), JSON.stringify(sessions, null, 2));
    if (!restart || switched) return;
    await running.finish();
    live.delete(c.sessionId);
  },
  'session.move': async (c) => {
    session(c.sessionId);
    mkdirSync(c.location, { recursive: true });
    // Claude Code's set_cwd control request, the headless form of /cd: it moves the session to the
    // directory and its transcript to that directory's project folder. It asks for the directory's
    // trust first where none was given (needs_trust): the kit's move is the user's own request.
    const claude = processOf(c.sessionId);
    let answer = await claude.control({ subtype: 'set_cwd', path: c.location });
    if (answer.status === 'needs_trust')
      answer = await claude.control({
        subtype: 'set_cwd',
        path: c.location,
        trust_accepted: true,
        trusted_directory: answer.directory,
      });
    if (answer.status === 'rejected')
      throw new Refusal(
        MOVE_REFUSALS[answer.reason] ?? 'invalid-input',
        `Claude Code refused the move to ${c.location} (set_cwd: ${answer.reason})`,
      );
    if (answer.status !== 'ok') throw new Error(`set_cwd answered ${JSON.stringify(answer)}`);
    const sessions = readSessions();
    sessions[c.sessionId].location = answer.cwd ?? c.location;
    writeFileSync(sessionsFile(), JSON.stringify(sessions, null, 2));
    // The tools contributed to the old location leave the session, and those of the new one come.
    await claude.setServers(serversFor(c.sessionId));
  },
  'agent.define': async (c) => {
    const agents = readAgents();
    agents[c.name] = { tools: c.tools, skills: c.skills };
    writeFileSync(agentsFile(), JSON.stringify(agents, null, 2));
    // Claude Code has no default agent: that sessions selecting none run as this one is the adapter's.
    const emulated = c.name === DEFAULT_AGENT ? ['agent.define.default'] : [];
    // Claude Code takes its agents and permission rules when its process starts: each session's
    // process that waits for nothing ends, and the next use starts it again over --resume.
    await endIdleProcesses();
    return new EmulatedAnswer(undefined, emulated);
  },
  // Claude Code asks the host about each tool call its rules leave open with a can_use_tool
  // control request (--permission-prompt-tool stdio), listed under the agent the process ran as then.
  'permission.pending': (c) => {
    session(c.sessionId);
    const running = live.get(c.sessionId);
    const requests = [...(running?.permissions.values() ?? [])];
    return { requests: requests.map(({ id, tool, agent }) => ({ id, tool, agent })) };
  },
  'permission.wait': async (c) => {
    session(c.sessionId);
    if (!(await live.get(c.sessionId)?.permissionAwaited()))
      throw new Refusal('conflict', 'the session has no work left and no tool call waits for permission');
  },
  'permission.reply': (c) => {
    for (const running of live.values()) if (running.answerPermission(c.id, c.approve, c.always === true)) return;
    throw new Refusal('not-found', `no tool call waits for permission as ${c.id}`);
  },
  'compaction.configure': async (c) => {
    const least = Math.min(c.contextWindow, ...Object.values(c.modelWindows ?? {}));
    if (least < LEAST_AUTO_COMPACT_WINDOW)
      throw new Refusal(
        'unsupported',
        `Claude Code takes an auto-compact window of ${LEAST_AUTO_COMPACT_WINDOW} tokens at least (its autoCompactWindow setting), not ${least}`,
      );
    if (c.prune !== undefined)
      throw new Refusal('unsupported', 'Claude Code has no switch for pruning old tool outputs apart from compaction');
    writeFileSync(compactionFile(), JSON.stringify(c, null, 2));
    // Claude Code reads its window and threshold when its process starts.
    await restartAll();
  },
  'host.env.set': async (c) => {
    writeFileSync(hostEnvFile(), JSON.stringify({ ...hostEnv(), [c.name]: c.value }, null, 2));
    // Claude Code reads its environment when its process starts.
    await restartAll();
  },
  'compaction.request': async (c) => {
    // `/compact` runs in print mode (supportsNonInteractive): a stream-json user message naming it
    // compacts the session at once; written while a turn runs, it waits for that turn to end.
    const claude = processOf(c.sessionId);
    const busy = !claude.settled();
    claude.send(userMessage({ parts: [{ type: 'text', text: '/compact' }] }, busy ? 'queue' : undefined, randomUUID()));
    await claude.idle();
  },
  'session.interrupt': async (c) => {
    const running = live.get(c.sessionId);
    if (!running || running.settled()) return;
    await running.control({ subtype: 'interrupt' });
    await running.idle();
  },
  ...storeReads({
    recordsOf: rowsOf,
    project: { history: toKitHistory, failures: toKitFailures, compactions: toKitCompactions, events: toKitEvents },
    known: session,
    subscriptions,
  }),
  'history.page': (c) => historyPage(c),
  epoch: (c) => {
    session(c.sessionId);
    return toKitEpoch(rowsOf(c.sessionId));
  },
  'tool-output.files': () => {
    // Claude Code saves a tool's large output beside the transcripts, one folder per session.
    const directory = join(configDir(), 'projects');
    const files = [];
    const walk = (dir) => {
      for (const entry of existsSync(dir) ? readdirSync(dir, { withFileTypes: true }) : []) {
        const path = join(dir, entry.name);
        if (entry.isDirectory()) walk(path);
        else if (dir.endsWith('tool-results')) files.push(path);
      }
    };
    walk(directory);
    return { directory, files: files.sort() };
  },
  'tool.contribution.register': (c) => contribute(c.location, c.contribution, c.tools, c.answers),
  'tool.contribution.close': (c) => contribute(c.location, c.contribution, undefined),
  'gate.wait': (c) => gates.blocked(c.name),
  'gate.open': (c) => gates.open(c.name),
  diagnostics: () => ({ diagnostics }),
  'runtime.close': close,
  'skill.define': async (c) => {
    const location = c.location ?? null;
    const skills = readSkills();
    const added = location !== null && !Object.values(skills).some((skill) => skill.location === location);
    // A skill defined again leaves the folders it was kept in before, where Claude Code would find it too.
    if (Object.hasOwn(skills, c.name))
      for (const dir of skillDirs(c.name, skills[c.name].location)) rmSync(dir, { recursive: true, force: true });
    skills[c.name] = { location, description: c.description, body: c.body };
    writeFileSync(skillsFile(), JSON.stringify(skills, null, 2));
    for (const dir of skillDirs(c.name, location)) writeSkill(dir, c.name, skills[c.name]);
    // Claude Code takes the directories it adds when its process starts: each session's process
    // that waits for nothing ends, and the next use starts it again over --resume with the new one.
    if (added) await endIdleProcesses();
  },
};

/** Each session's process that waits for nothing ends; the next use starts it again over --resume. */
async function endIdleProcesses() {
  await Promise.all(
    [...live.entries()]
      .filter(([, running]) => running.settled())
      .map(async ([id, running]) => {
        await running.finish();
        live.delete(id);
      }),
  );
}

/**
 * Each session's process ends cleanly once its work is done (stdin closed), and the next use starts
 * it again over the transcript (--resume), reading what the kit changed.
 */
async function restartAll() {
  await Promise.all([...live.values()].map((running) => running.finish()));
  live.clear();
}

/**
 * Claude Code's reasons for refusing set_cwd, as the protocol's refusals. While a turn runs it
 * cannot move at all ("rejected while a turn is in flight"): a move during a turn is what it lacks.
 */
const MOVE_REFUSALS = {
  busy: 'unsupported',
  not_found: 'not-found',
  not_a_directory: 'invalid-input',
  unsafe_path: 'invalid-input',
  blocked_by_rule: 'conflict',
  remote_origin: 'conflict',
};

/** Commands Claude Code has no equivalent for, and why (README.md says more). */
const UNSUPPORTED = {
  inbox:
    "Claude Code reports its queued input only on its live stream (command_lifecycle), and nothing durable of its names a queued message's ID or text",
  'tool-output.configure':
    "Claude Code bounds Bash output by characters only (its bashOutputMaxChars setting, clamped to 4000-128000, 30000 by default; past it the output is saved to a file): the kit's limits in lines or under 4000 bytes cannot be set",
};

/**
 * `runtime.close`: each session's process ends cleanly (`end_session`, then its stdin closed) and
 * the adapter forgets the runtime; the next hello points new processes at its own store, home and
 * provider (CLAUDE_CONFIG_DIR, HOME, ANTHROPIC_BASE_URL), so nothing of this one is kept.
 */
async function close() {
  await Promise.all([...live.values()].map((running) => running.close()));
  live.clear();
  subscriptions.clear();
  gates = new GateBoard();
  diagnostics.length = 0;
  config = undefined;
}

async function shutdown() {
  await Promise.all([...live.values()].map((running) => running.stop()));
}

serveStdio({ runtime: 'Claude Code', hello, commands, unsupported: UNSUPPORTED, end: shutdown });
