import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { format } from 'node:util';
import { EmulatedAnswer, PROTOCOL, Refusal, serveStdio } from '../../harness/adapter/stdio-serve.mjs';
import { storeReads } from '../../harness/adapter/store-reads.mjs';
import { PiSessions } from './pi-sessions.mjs';
import { contribute, withdraw } from './tool-contributions.mjs';
import { toKitCompactions, toKitEvents, toKitFailures, toKitHistory } from './session-file.mjs';
import { CALLER_IDS, heldReceipt } from '../../harness/adapter/held-prompts.mjs';

/**
 * A `session-runtime-adapter/1` adapter driving the published pi coding agent
 * (`@mariozechner/pi-coding-agent`) in this process, through its SDK: one `AgentSession` per kit
 * session, its JSONL file under the kit's store, the kit's fake provider as a pi provider.
 * Newline-delimited JSON on stdin and stdout; everything else goes to stderr.
 */

// No network but the kit's loopback provider: pi's start-up version check and install telemetry
// are switched off before pi is loaded.
process.env.PI_OFFLINE = '1';
process.env.PI_SKIP_VERSION_CHECK = '1';
const piLoaded = import('@mariozechner/pi-coding-agent');
const aiLoaded = import('@mariozechner/pi-ai');

const diagnostics = [];
// pi reports problems it recovers from (an unreadable AGENTS.md, a failed extension) on the console.
for (const level of ['error', 'warn']) {
  console[level] = (...args) => {
    const message = format(...args);
    diagnostics.push(message);
    process.stderr.write(`${message}\n`);
  };
}
console.log = console.info = (...args) => process.stderr.write(`${format(...args)}\n`);

let sessions;
const subscriptions = new Map();
/** The time zone the process started in: a runtime opened without one of its own runs in it. */
const startTimeZone = process.env.TZ;

async function hello(config) {
  // A runtime reads the host's clock and time zone; the kit moves the date by restarting it in another zone.
  setEnv('TZ', config.timeZone ?? startTimeZone);
  // pi's home directory (skills under ~/.agents) and its temporary directory (bash's full outputs)
  // are the kit's: nothing outside the scenario's directory is read or written.
  process.env.HOME = config.home;
  const tmp = join(config.storeDir, 'tmp');
  mkdirSync(tmp, { recursive: true });
  mkdirSync(config.home, { recursive: true });
  process.env.TMPDIR = tmp;
  // The host environment the kit set (host.env.set) is the host's, not the process's: a restart
  // over the same store runs in it again, unless the kit restarts it in another time zone.
  hostEnvFile = join(config.storeDir, 'host-env.json');
  hostEnv = existsSync(hostEnvFile) ? JSON.parse(readFileSync(hostEnvFile, 'utf8')) : {};
  for (const [name, value] of Object.entries(hostEnv)) {
    if (name !== 'TZ' || config.timeZone === undefined) setHostVariable(name, value);
  }
  const [pi, ai] = await Promise.all([piLoaded, aiLoaded]);
  sessions = new PiSessions(pi, config, diagnostics);
  sessions.isContextOverflow = ai.isContextOverflow;
  return {
    protocol: PROTOCOL,
    // pi is loaded as a library: its process is this one.
    runtime: { name: 'pi', version: pi.VERSION, language: 'typescript', inAdapterProcess: true },
    profiles: ['core'],
    capabilities: [
      'restart',
      'kit-tools',
      'manual-compaction',
      'process-reuse',
      'host-env',
      'history-paging',
      'busy-submit',
      'tool-contributions',
    ],
    shell: { tool: 'bash', commandField: 'command' },
    texts: {},
    emulated: EMULATED,
    absent: ABSENT,
    // pi's compaction keeps the newest 20000 tokens as they are (its keepRecentTokens default);
    // the window and allowance are those the adapter gives the kit's models until configured.
    limits: {
      contextWindow: 200_000,
      outputAllowance: 16_384,
      recentContextTokens: 20_000,
      // pi's bash and read tools bound their output at 2000 lines or 50 KB (UTF-8), whichever comes first
      // (DEFAULT_MAX_LINES, DEFAULT_MAX_BYTES in its tools/truncate.js); pi bounds no other tool's result.
      toolOutput: { maxLines: 2000, maxBytes: 50 * 1024, tool: 'bash' },
    },
  };
}

/** What this adapter computes itself because pi has no such notion; a verdict resting on one of these judges the adapter too. */
const EMULATED = {
  'session.create':
    'the adapter keeps kit session IDs and locations in kit-sessions.json and names each pi session file after its ID; pi names sessions by a UUID of its own',
  'prompt.admit.held':
    "resume false (while idle) and input during a requested compaction are held in the adapter's memory until submitted: pi has no admit-without-run",
  'prompt.admit.receipt': "the receipt echoes the kit's ID: pi keeps no message IDs",
  'prompt.admit.id': "a prompt's message ID is the adapter's note of it: pi keeps no message IDs of the caller",
  'prompt.submit.id': "the result echoes the kit's message ID: pi's prompt() takes no ID and returns none",
  'session.run.held':
    "submits the held prompts, else calls pi's agent.continue() when the transcript ends in a user message or a tool result or input is queued, after a failed attempt once its error leaves the context as in pi's own retry",
  'session.wake': 'submits the held prompts and nothing else: pi starts no work when a session opens',
  'session.idle':
    "waits on pi's agent loop, its private event queue (_agentEventQueue) and its restart after a compaction",
  events: "the session file's entries, numbered by their position in the file: pi keeps no event sequence",
  'events.subscribe': 'a cursor the adapter keeps over the session file; pi has no replayable event stream',
  'events.take': 'reads the session file after the cursor the adapter keeps',
  'agent.define':
    "the adapter keeps the agents (kit-agents.json), pi having no named agents, and applies their rules through pi's interfaces: a denied tool leaves setActiveToolsByName(), the adapter's tool_call handler blocks a denied call and holds an asked one, skillsOverride filters the skills; an unruled tool runs unasked, as pi runs every tool",
  'session.select.agent':
    "the selected agent is kept in the adapter's record of the session; its tools apply from pi's next run, its skills once pi reopens the session, its tool rules from the next provider turn",
  'inbox.admission':
    "pi keeps texts only: each inbox row's message ID, delivery and admission sequence (the position of the last entry pi had written when it was admitted) come from the adapter's in-memory note of the admission, matched by text in admission order; a user entry written before the process started gets pi's entry ID, steer and the position before it",
  'history-paging':
    "pages the adapter's own projection of the session file's current branch (the history command's): pi's SessionManager.getBranch() walks the same branch but keeps no message positions and no pages",
};

/**
 * What of EMULATED pi has no interface for at all: no message IDs, no prompt kept without a run, no
 * wake, no named agents; a rule about one is not implemented.
 */
const ABSENT = [
  'prompt.admit.held',
  'prompt.admit.receipt',
  'prompt.admit.id',
  'prompt.submit.id',
  'session.wake',
  'agent.define',
];

function setEnv(name, value) {
  if (value === undefined) delete process.env[name];
  else process.env[name] = value;
}

/** The host environment the kit set, kept in the store; and what each variable was before it. */
let hostEnvFile;
let hostEnv = {};
const hostEnvBefore = new Map();

function setHostVariable(name, value) {
  if (!hostEnvBefore.has(name)) hostEnvBefore.set(name, process.env[name]);
  setEnv(name, value ?? undefined);
}

/**
 * pi reads the environment of the process it runs in: the system prompt's date in the local time
 * zone when a session opens (`new Date()` in its system-prompt.js), and bash's environment at each
 * command (`getShellEnv()` spreads `process.env`). The variable is set in this process, and the
 * open sessions are reopened (a running one once it settles), so the next turn reads it.
 */
/**
 * Switches of the host environment that another runtime reads and pi does not (its own are `PI_*`,
 * docs/usage.md): set, they would change nothing pi does, so the adapter refuses them as absent.
 */
const UNREAD_SWITCHES = new Set(['OPENCODE_DISABLE_PROJECT_CONFIG']);

async function setHostEnv({ name, value }) {
  if (UNREAD_SWITCHES.has(name))
    throw new Refusal(
      'unsupported',
      `absent in pi ${(await piLoaded).VERSION}: pi reads no ${name} (its nearest, --no-context-files, drops the global file too)`,
    );
  setHostVariable(name, value);
  hostEnv = { ...hostEnv, [name]: value };
  writeFileSync(hostEnvFile, JSON.stringify(hostEnv, null, 2));
  await sessions.reopenAll();
}

/** Puts back what the host environment was before the kit set it, for the next runtime. */
function restoreHostEnv() {
  for (const [name, value] of hostEnvBefore) setEnv(name, value);
  hostEnvBefore.clear();
  hostEnv = {};
}

/**
 * Ends this runtime so that the next hello opens one that keeps nothing of it: every pi session
 * stopped and disposed, and the adapter's own state (subscriptions, diagnostics, counters) back
 * to what a fresh process has; the next hello sets the environment (HOME, TMPDIR, TZ) anew. pi's state lives in the objects each session
 * creates (its auth storage, model registry and settings are in memory, per session).
 */
async function close() {
  await sessions.stopAll();
  restoreHostEnv();
  subscriptions.clear();
  diagnostics.length = 0;
  admitted = 0;
}

function promptContent(prompt) {
  const text = prompt.parts
    .filter((part) => part.type === 'text')
    .map((part) => part.text)
    .join('\n');
  const images = prompt.parts
    .filter((part) => part.type === 'image')
    .map((part) => ({ type: 'image', data: part.data, mimeType: part.mediaType }));
  return { text, images: images.length > 0 ? images : undefined };
}

/**
 * pi's three entries for user input: `prompt` starts a run when idle; while a run is active,
 * `steer` enters after the current turn's tool calls and `followUp` once the run would stop.
 * pi has no inbox and no message IDs: the receipt echoes the kit's ID, and nothing dedupes.
 */
async function admit(c) {
  if (c.delivery !== undefined && c.delivery !== 'steer' && c.delivery !== 'queue') {
    throw new Refusal('invalid-input', `delivery must be steer or queue, not ${JSON.stringify(c.delivery)}`);
  }
  const live = await sessions.open(c.sessionId);
  const messageId = c.id ?? `prompt_${sessions.config.instance}_${++admitted}`;
  const { text, images } = promptContent(c.prompt);
  // pi keeps no message IDs: the adapter notes each admission for the inbox rows.
  sessions.noteAdmission(c.sessionId, { messageId, text, delivery: c.delivery ?? 'steer' });
  const receipt = { messageId, state: 'pending', duplicate: false };
  if (live.afterCompaction) {
    live.afterCompaction.push({ text, images, delivery: c.delivery });
    return heldReceipt(messageId);
  }
  if (live.running) {
    // pi's own steering and follow-up queues hold it: only the receipt is the adapter's.
    if (c.delivery === 'queue') await live.session.followUp(text, images);
    else await live.session.steer(text, images);
    return new EmulatedAnswer(receipt, CALLER_IDS);
  }
  if (c.resume === false) {
    // pi has no admit-without-run: the text waits, in memory only, as in pi's editor until submitted.
    live.held.push({ text, images, delivery: c.delivery });
    return heldReceipt(messageId);
  }
  live.track(live.session.prompt(text, { images, expandPromptTemplates: false }), diagnostics);
  return new EmulatedAnswer({ ...receipt, state: 'promoted' }, CALLER_IDS);
}
let admitted = 0;

/**
 * A prompt as pi's own `prompt()` takes it without `streamingBehavior`: on an idle session pi
 * appends it and runs; while pi's agent streams, pi itself throws "Agent is already processing"
 * before it touches anything, which is the `busy` refusal. pi reports through `preflightResult`
 * whether it took the prompt, before the run it starts goes on; the message ID is the kit's, pi
 * keeping none.
 */
async function submit(c) {
  const live = await sessions.open(c.sessionId);
  const messageId = c.id ?? `prompt_${sessions.config.instance}_${++admitted}`;
  const { text, images } = promptContent(c.prompt);
  const note = sessions.noteAdmission(c.sessionId, { messageId, text, delivery: 'steer' });
  let taken;
  const preflight = new Promise((resolve) => {
    taken = resolve;
  });
  const prompting = live.session.prompt(text, { images, expandPromptTemplates: false, preflightResult: taken });
  if (!(await preflight)) {
    const error = await prompting.then(
      () => undefined,
      (failure) => failure,
    );
    sessions.forgetAdmission(c.sessionId, note);
    const message = error instanceof Error ? error.message : String(error);
    throw new Refusal(/already processing/.test(message) ? 'busy' : 'invalid-input', message);
  }
  live.track(prompting, diagnostics);
  return new EmulatedAnswer({ messageId }, ['prompt.submit.id']);
}

/**
 * Submits the held prompts: the first starts a run, the rest enter pi's queues by their delivery.
 * With nothing held, an explicit run continues pi's transcript when it ends in a user message or a
 * tool result (`agent.continue()`, what pi itself calls to go on after a compaction or a retry);
 * after a failed attempt it first drops the error from the context, keeping it in the session
 * file, as pi's own retry does. pi's continue() refuses to go on from an answer or an empty
 * transcript: such a run sends nothing.
 */
async function run(sessionId, explicit) {
  const live = await sessions.open(sessionId);
  if (explicit && live.held.length === 0 && !live.running) {
    const { agent } = live.session;
    // pi-ai leaves a failed or aborted answer out of what the model sees (transformMessages).
    if (['error', 'aborted'].includes(agent.state.messages.at(-1)?.stopReason))
      agent.state.messages = agent.state.messages.slice(0, -1);
    // pi's own continue(), from wherever the transcript stands: it goes on from a user message or a
    // tool result, or after an answer with input still queued, and refuses otherwise ("No messages
    // to continue from", "Cannot continue from message role: assistant", a diagnostic line): what
    // pi's run does here is pi's, not the adapter's.
    live.track(agent.continue(), diagnostics);
    return new EmulatedAnswer(undefined, []);
  }
  const held = live.held.splice(0);
  for (const [index, { text, images, delivery }] of held.entries()) {
    if (index === 0 && !live.running) {
      live.track(live.session.prompt(text, { images, expandPromptTemplates: false }), diagnostics);
    } else if (delivery === 'queue') await live.session.followUp(text, images);
    else await live.session.steer(text, images);
  }
  return new EmulatedAnswer(undefined, explicit ? ['session.run.held'] : ['session.wake']);
}

/**
 * One page of the history, newest last: the `limit` messages before the message `before` (or the
 * newest), in the order of the session file's current branch, as `history` projects it. pi pages
 * nothing itself: its `SessionManager.getBranch()` returns the whole branch.
 */
function historyPage({ sessionId, limit, before }) {
  const messages = toKitHistory(sessions.entries(sessionId));
  let end = messages.length;
  if (before !== undefined) {
    end = messages.findIndex((message) => message.id === before);
    if (end < 0) throw new Refusal('not-found', `no message ${before} in session ${sessionId}`);
  }
  return { messages: messages.slice(Math.max(0, end - limit), end) };
}

const commands = {
  'session.create': (c) => sessions.create(c.id, c.location),
  'prompt.admit': admit,
  'prompt.submit': submit,
  'session.run': (c) => run(c.sessionId, true),
  // pi does not resume work on its own when a session opens: waking submits only what is held.
  'session.wake': (c) => run(c.sessionId, false),
  'session.idle': async (c) => {
    sessions.record(c.sessionId);
    const live = sessions.live.get(c.sessionId);
    if (live) await (await live.ready).settle();
  },
  // Interrupting a session pi is not running (idle, never opened, unknown) does nothing.
  'session.interrupt': async (c) => {
    const live = await sessions.live.get(c.sessionId)?.ready;
    if (!live) return;
    // As pi's own interrupt key: a running compaction is stopped too, which abort() alone does not reach.
    live.session.abortCompaction();
    await live.session.abort();
    await live.settle();
  },
  'session.move': async (c) => {
    sessions.record(c.sessionId);
    await sessions.move(c.sessionId, c.location);
  },
  'session.select': async (c) => {
    if (c.agent !== undefined) await sessions.selectAgent(c.sessionId, c.agent);
    if (c.model !== undefined) await sessions.selectModel(c.sessionId, c.model);
  },
  'agent.define': (c) => sessions.defineAgent(c),
  inbox: (c) => sessions.inbox(c.sessionId),
  epoch: (c) => sessions.epoch(c.sessionId),
  // Calls held by the adapter's tool_call handler (pi's extension interface) until the kit replies.
  'permission.pending': (c) => {
    sessions.record(c.sessionId);
    return { requests: sessions.permissions.pending(c.sessionId) };
  },
  'permission.wait': async (c) => {
    sessions.record(c.sessionId);
    const { permissions } = sessions;
    while (permissions.pending(c.sessionId).length === 0) {
      const live = await sessions.live.get(c.sessionId)?.ready;
      // With pi settled nothing can call a tool any more, so no request can come.
      if (!live?.running)
        throw new Refusal('conflict', 'the session has no work left and no tool call awaits permission');
      await Promise.race([permissions.nextRequest(), live.settle()]);
    }
  },
  'permission.reply': (c) => {
    if (!sessions.permissions.reply(c.id, c.approve))
      throw new Refusal('not-found', `no tool call awaits permission as ${c.id}`);
  },
  'compaction.configure': (c) => sessions.configureCompaction(c),
  'host.env.set': setHostEnv,
  'compaction.request': async (c) => {
    const live = await sessions.open(c.sessionId);
    live.afterCompaction = [];
    const submitQueued = async () => {
      const [first, ...rest] = live.afterCompaction ?? [];
      live.afterCompaction = undefined;
      if (!first) return;
      live.track(live.session.prompt(first.text, { images: first.images, expandPromptTemplates: false }), diagnostics);
      for (const { text, images, delivery } of rest) {
        if (delivery === 'queue') await live.session.followUp(text, images);
        else await live.session.steer(text, images);
      }
    };
    live.track(live.session.compact().finally(submitQueued), diagnostics);
  },
  compactions: (c) => ({ compactions: toKitCompactions(sessions.entries(c.sessionId)) }),
  'tool-output.files': () => {
    // pi's bash keeps the full output of a bounded command in the temporary directory.
    const directory = process.env.TMPDIR;
    return {
      directory,
      files: readdirSync(directory)
        .sort()
        .map((name) => join(directory, name)),
    };
  },
  'history.page': (c) => historyPage(c),
  diagnostics: () => ({ diagnostics }),
  'runtime.close': close,
  'skill.define': (c) => {
    // pi reads skills from below `<agentDir>/skills/` when a session opens, a folder named after the
    // skill (its name must match it) in one named after the kit's location, where there is one.
    const dir = join(sessions.config.home, 'skills', c.location ? basename(c.location) : '', c.name);
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'SKILL.md'), `---\nname: ${c.name}\ndescription: ${c.description}\n---\n\n${c.body}\n`);
  },
  // A contribution is a project extension of its location, which pi loads when a session opens there.
  'tool.contribution.register': async (c) => {
    // pi's extension tools declare no output schema (`ToolDefinition` in
    // dist/core/extensions/types.d.ts: parameters, execute and rendering only), so nothing in pi
    // checks a result against one.
    if (Object.keys(c.answers ?? {}).length > 0)
      throw new Refusal('unsupported', 'a tool of pi declares no output schema to answer under');
    contribute(c.location, c.contribution, c.tools);
    await sessions.reopenAt(c.location);
  },
  'tool.contribution.close': async (c) => {
    withdraw(c.location, c.contribution);
    await sessions.reopenAt(c.location);
  },
  'gate.wait': (c) => sessions.gates.blocked(c.name),
  'gate.open': (c) => sessions.gates.open(c.name),
  ...storeReads({
    recordsOf: (sessionId) => sessions.entries(sessionId),
    project: {
      history: toKitHistory,
      failures: (entries) => toKitFailures(entries, (m) => sessions.isContextOverflow(m)),
      events: toKitEvents,
    },
    known: (sessionId) => sessions.record(sessionId),
    subscriptions,
  }),
};

/** Commands pi has no equivalent for, and why (adapters/pi/README.md says more). */
const UNSUPPORTED = {
  'tool-output.configure':
    'pi bounds tool output only inside its bash and read tools, at fixed limits (2000 lines, 50 KB), declared as limits.toolOutput',
};

serveStdio({
  runtime: 'pi',
  hello,
  commands,
  unsupported: UNSUPPORTED,
  end: async () => sessions?.terminate(),
});
