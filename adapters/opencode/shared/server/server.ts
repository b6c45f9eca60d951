import { spawn, type ChildProcess } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { createServer } from 'node:net';
import { arch, platform } from 'node:os';
import { dirname, join } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { serverRequest } from './server-request.js';

/**
 * Switches that keep the server offline and away from the user's own tools (verified in OpenCode
 * 1.18.33), each after the runtime's own prefix.
 */
const OFFLINE_SWITCHES = [
  'DISABLE_MODELS_FETCH',
  'DISABLE_AUTOUPDATE',
  'DISABLE_SHARE',
  'DISABLE_LSP_DOWNLOAD',
  'DISABLE_DEFAULT_PLUGINS',
  'DISABLE_CLAUDE_CODE',
  'DISABLE_EXTERNAL_SKILLS',
  'DISABLE_EMBEDDED_WEB_UI',
];

/**
 * What a runtime of OpenCode's line names its own way: OpenCode itself, or a fork that serves the
 * same routes from a binary, variables and directories of its own names. Each adapter declares
 * its runtime's; everything else about the server is shared.
 */
export interface ServerRuntime {
  /** The runtime's name in the adapter's errors. */
  title: string;
  /** The `node_modules` of the adapter folder that pins the package. */
  packageDir: string;
  /** The pinned package, whose manifest gives the runtime's version. */
  packageName: string;
  /** Where the platform binary may be below `packageDir`, the first that exists being run. */
  binaries: string[];
  /** What its environment variables start with (`OPENCODE_`): the offline switches, the store and the model database. */
  variablePrefix: string;
  /** Further variables the server is started with, set after the offline switches. */
  environment: Record<string, string>;
  /** Its folder below each XDG directory, and the server store's folder for them. */
  directoryName: string;
  /** Its global configuration file, the one `PATCH /global/config` writes back, and the file's schema. */
  configFile: string;
  configSchema: string;
  /**
   * Files a fresh installation records in the configuration folder before any configuration is
   * there, written (empty) beside the adapter's configuration file: what the runtime would
   * otherwise do once to a configuration it finds already there.
   */
  freshInstallMarks: string[];
  /** Its database file in the server store. */
  database: string;
  /** The request header naming a location's directory. */
  directoryHeader: string;
}

export const PROVIDER_ID = 'kit';

/** What `opencode serve` prints once it accepts requests (1.18.33). */
const LISTENING_LINE = 'server listening on';

/** The limits every model is configured with until the kit sets a budget. */
export const DEFAULT_MODEL_LIMIT = { context: 200_000, output: 8_192 };

/** The AI SDK provider OpenCode loads for each of the kit's wire dialects (both bundled in its binary). */
export const PROVIDER_PACKAGES: Record<string, string> = {
  'openai-chat': '@ai-sdk/openai-compatible',
  'anthropic-messages': '@ai-sdk/anthropic',
};

/** The platform binary itself, so no Node wrapper process stands between the adapter and the server. */
export function runtimeBinary(runtime: ServerRuntime): string {
  const found = runtime.binaries.map((path) => join(runtime.packageDir, path)).find((path) => existsSync(path));
  if (!found)
    throw new Error(`no ${runtime.title} binary under ${runtime.packageDir}: run npm ci in its adapter folder`);
  return found;
}

export function runtimeVersion(runtime: ServerRuntime): string {
  const manifest = JSON.parse(readFileSync(join(runtime.packageDir, runtime.packageName, 'package.json'), 'utf8')) as {
    version: string;
  };
  return manifest.version;
}

/** The binaries of a platform package named `<prefix>-<platform>-<arch>`, plain or `-baseline` (built without AVX2). */
export function platformBinaries(packagePrefix: string, binary: string): string[] {
  return ['', '-baseline'].map((variant) => join(`${packagePrefix}-${platform()}-${arch()}${variant}`, 'bin', binary));
}

/** The agents of `agents` with the one `agent.define` names defined, or defined again. */
export function withAgentDefined(
  agents: ServerSettings['agents'],
  c: Record<string, unknown>,
): NonNullable<ServerSettings['agents']> {
  return {
    ...agents,
    [String(c.name)]: {
      tools: (c.tools ?? {}) as Record<string, string>,
      skills: (c.skills ?? {}) as Record<string, string>,
    },
  };
}

/** The skills of `skills` with the one `skill.define` names defined, or defined again. */
export function withSkillDefined(
  skills: ServerSettings['skills'],
  c: Record<string, unknown>,
): NonNullable<ServerSettings['skills']> {
  return {
    ...skills,
    [String(c.name)]: {
      description: String(c.description),
      body: String(c.body),
      ...(c.location ? { location: String(c.location) } : {}),
    },
  };
}

export interface ServerSettings {
  /** The runtime of OpenCode's line the server is, as its adapter declares it. */
  runtime: ServerRuntime;
  storeDir: string;
  home: string;
  dialect: string;
  baseUrl: string;
  apiKey: string;
  model: string;
  /** Further models sessions switched to; OpenCode offers only the models its configuration names. */
  otherModels?: string[];
  timeZone?: string;
  /** Budgets the kit configured, written to OpenCode's configuration file. */
  toolOutput?: { maxLines: number; maxBytes: number };
  compaction?: {
    contextWindow: number;
    outputAllowance: number;
    buffer: number;
    modelWindows?: Record<string, number>;
    /** Automatic compaction and pruning (`compaction.auto`, `compaction.prune`), written only when set. */
    auto?: boolean;
    prune?: boolean;
    /** The compaction agent's model (`agent.compaction.model`); the session's when absent. */
    model?: string;
  };
  /** Agents the kit defined: per tool and per skill, allow, deny or ask. */
  agents?: Record<string, { tools: Record<string, string>; skills: Record<string, string> }>;
  /** Variables the kit set in the host environment; OpenCode reads them only at start. */
  environment?: Record<string, string>;
  /** Whether the models are declared to read images (`attachment`, `modalities`); OpenCode drops images otherwise. */
  imageInput?: boolean;
  /** Skills the kit defined, written as SKILL.md files under the store. */
  skills?: Record<string, { description: string; body: string; location?: string }>;
}

/**
 * Whether one server process serves both: what OpenCode takes from its environment, read only
 * when the process starts, is the same (the rest is its configuration file, which it reads again).
 */
export function sameProcess(one: ServerSettings, other: ServerSettings): boolean {
  return (
    one.runtime.packageDir === other.runtime.packageDir &&
    one.storeDir === other.storeDir &&
    one.timeZone === other.timeZone &&
    isDeepStrictEqual(one.environment ?? {}, other.environment ?? {})
  );
}

/**
 * One hermetic `opencode serve`: HOME, every XDG directory and the store under the scenario's
 * store directory, the global configuration directory being the kit's `home`. The server stays in
 * the adapter's process group, so the kit's SIGKILL of that group reaches it too.
 */
export class OpencodeServer {
  readonly url: string;
  private readonly child: ChildProcess;
  private readonly exited: Promise<void>;
  /** Settles when the server announces that it listens. */
  private readonly listening: Promise<void>;
  private log = '';
  private readonly title: string;

  private constructor(port: number, settings: ServerSettings) {
    this.url = `http://127.0.0.1:${port}`;
    this.title = settings.runtime.title;
    const env = hermeticEnvironment(settings);
    this.child = spawn(runtimeBinary(settings.runtime), ['serve', '--port', String(port), '--hostname', '127.0.0.1'], {
      cwd: settings.storeDir,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let announced = () => {};
    this.listening = new Promise((resolve) => (announced = resolve));
    let said = '';
    const keep = (chunk: Buffer) => {
      const text = chunk.toString('utf8');
      this.log = (this.log + text).slice(-4000);
      said = (said + text).slice(-200);
      if (said.includes(LISTENING_LINE)) announced();
    };
    this.child.stdout!.on('data', keep);
    this.child.stderr!.on('data', keep);
    this.exited = new Promise((resolve) => this.child.on('exit', () => resolve()));
  }

  /** `spawned` learns of the process before it listens, so an adapter told to stop can kill it at once. */
  static async start(
    settings: ServerSettings,
    readyWithinMs: number,
    spawned: (server: OpencodeServer) => void,
  ): Promise<OpencodeServer> {
    writeConfiguration(settings);
    const server = new OpencodeServer(await freePort(), settings);
    spawned(server);
    await server.ready(readyWithinMs);
    return server;
  }

  get pid(): number | undefined {
    return this.child.pid;
  }

  /** Whether the process still runs. */
  get running(): boolean {
    return this.child.exitCode === null && this.child.signalCode === null;
  }

  /**
   * Has the running server read its configuration file again, which costs a fraction of a start.
   * OpenCode holds its global configuration for the life of its process; its own route
   * `PATCH /global/config` (Config.updateGlobal, OpenCode 1.18.33, Kilo CLI 7.7.7) merges the body
   * into that file and, only when that changes the file's text, writes it back and drops what it
   * held. So the file goes without its `$schema` and the body brings it back: the text changes
   * while what the file says does not (Kilo edits its `kilo.jsonc` in place, and an empty body
   * would leave it as it was). `POST /global/dispose` then disposes every location's instance
   * (joining the disposal the change started), each booting from the file again on its next
   * request. False when the server did not write the file back as it was: only a restart reads it then.
   */
  async reread(settings: ServerSettings): Promise<boolean> {
    const file = join(settings.home, settings.runtime.configFile);
    const wanted = JSON.parse(readFileSync(file, 'utf8'));
    const { $schema, ...unmarked } = wanted;
    const sent = `${JSON.stringify(unmarked, null, 2)}\n`;
    writeFileSync(file, sent);
    await serverRequest('PATCH', `${this.url}/global/config`, '/global/config', { $schema });
    const now = readFileSync(file, 'utf8');
    if (now === sent || !isDeepStrictEqual(JSON.parse(now), wanted)) return false;
    await serverRequest('POST', `${this.url}/global/dispose`, '/global/dispose', {});
    return true;
  }

  /** SIGKILL at once: the store is durable, and SIGTERM does not always stop it within seconds. */
  async stop(): Promise<void> {
    if (this.running && this.child.pid) killTree(this.child.pid);
    await this.exited;
  }

  /** Synchronous, for process exit handlers. */
  stopNow(): void {
    if (this.running && this.child.pid) killTree(this.child.pid);
  }

  /**
   * Ready once the server says it listens and answers its health route. A request sent before that
   * line can hang unanswered (seen in 1.18.33: connected, never served), so nothing is asked before it.
   */
  private async ready(withinMs: number): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<'late'>((resolve) => (timer = setTimeout(() => resolve('late'), withinMs)));
    try {
      const first = await Promise.race([
        this.listening.then(() => 'listening' as const),
        this.exited.then(() => 'exited' as const),
        late,
      ]);
      const serve = `${this.title} serve`;
      if (first === 'exited') throw new Error(`${serve} exited before listening:\n${this.log}`);
      if (first === 'late') throw new Error(`${serve} did not listen within ${withinMs} ms:\n${this.log}`);
      const response = await fetch(`${this.url}/api/health`, { signal: AbortSignal.timeout(withinMs) });
      if (!response.ok) throw new Error(`${serve} answered its health route ${response.status}:\n${this.log}`);
    } catch (error) {
      this.stopNow();
      throw error;
    } finally {
      clearTimeout(timer);
    }
  }
}

function hermeticEnvironment(settings: ServerSettings): NodeJS.ProcessEnv {
  const { runtime } = settings;
  const root = join(settings.storeDir, runtime.directoryName);
  const dirs = {
    HOME: join(root, 'home'),
    XDG_CONFIG_HOME: join(root, 'config'),
    XDG_DATA_HOME: join(root, 'data'),
    XDG_STATE_HOME: join(root, 'state'),
    XDG_CACHE_HOME: join(root, 'cache'),
    XDG_RUNTIME_DIR: join(root, 'runtime'),
    // The binary unpacks a native library (5.5 MB) into the temporary directory on every start and
    // leaves it there: in the store, it goes with the scenario.
    TMPDIR: join(root, 'tmp'),
  };
  // A store's server is started again and again (a restart, another time zone): only the one
  // starting now needs its library, one that ended has it mapped still if it needs it at all.
  rmSync(dirs.TMPDIR, { recursive: true, force: true });
  for (const dir of Object.values(dirs)) mkdirSync(dir, { recursive: true });
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    LANG: 'C.UTF-8',
    // The kit finds and kills whatever its adapter started by this mark, even a server that left
    // the adapter's process group; a clean environment must keep it.
    ...(process.env.KIT_ADAPTER_MARK ? { KIT_ADAPTER_MARK: process.env.KIT_ADAPTER_MARK } : {}),
    ...dirs,
    [`${runtime.variablePrefix}DB`]: join(settings.storeDir, runtime.database),
    // An empty model database instead of the built-in catalog of hosted providers: the kit's
    // provider is configured in full, and each location's catalog then loads in a fraction of the CPU.
    [`${runtime.variablePrefix}MODELS_PATH`]: emptyModelDatabase(root),
    ...(settings.timeZone ? { TZ: settings.timeZone } : process.env.TZ ? { TZ: process.env.TZ } : {}),
    ...settings.environment,
  };
  for (const name of OFFLINE_SWITCHES) env[`${runtime.variablePrefix}${name}`] = '1';
  return { ...env, ...runtime.environment };
}

function emptyModelDatabase(root: string): string {
  const file = join(root, 'models.json');
  writeFileSync(file, '{}\n');
  return file;
}

/**
 * `$XDG_CONFIG_HOME/opencode` (the runtime's own folder there) is the kit's `home`, so a global
 * AGENTS.md the kit writes there is OpenCode's own global instruction file; opencode.json (the
 * runtime's configuration file) sits beside it. The link is replaced in one step, so a server kept
 * for another scenario finds that scenario's home there at once.
 */
export function writeConfiguration(settings: ServerSettings): void {
  const { runtime } = settings;
  const configHome = join(settings.storeDir, runtime.directoryName, 'config');
  mkdirSync(configHome, { recursive: true });
  mkdirSync(settings.home, { recursive: true });
  linkInOneStep(settings.home, join(configHome, runtime.directoryName));
  // Each model's own window: OpenCode weighs a turn against the limits of the model it selected.
  const limit = (model: string) =>
    settings.compaction
      ? {
          context: settings.compaction.modelWindows?.[model] ?? settings.compaction.contextWindow,
          output: settings.compaction.outputAllowance,
        }
      : DEFAULT_MODEL_LIMIT;
  const skillFolders = writeSkills(join(settings.storeDir, runtime.directoryName), settings.skills ?? {});
  const config = {
    $schema: runtime.configSchema,
    autoupdate: false,
    share: 'disabled',
    snapshot: false,
    model: `${PROVIDER_ID}/${settings.model}`,
    small_model: `${PROVIDER_ID}/${settings.model}`,
    enabled_providers: [PROVIDER_ID],
    provider: {
      [PROVIDER_ID]: {
        npm: PROVIDER_PACKAGES[settings.dialect],
        name: 'conformance kit',
        options: { baseURL: settings.baseUrl, apiKey: settings.apiKey },
        models: Object.fromEntries(
          [settings.model, ...(settings.otherModels ?? [])].map((model) => [
            model,
            {
              name: model,
              limit: limit(model),
              ...(settings.imageInput
                ? { attachment: true, modalities: { input: ['text', 'image', 'pdf'], output: ['text'] } }
                : {}),
            },
          ]),
        ),
      },
    },
    ...(settings.toolOutput
      ? { tool_output: { max_lines: settings.toolOutput.maxLines, max_bytes: settings.toolOutput.maxBytes } }
      : {}),
    ...(settings.compaction
      ? {
          compaction: {
            reserved: settings.compaction.buffer,
            ...(settings.compaction.auto === undefined ? {} : { auto: settings.compaction.auto }),
            ...(settings.compaction.prune === undefined ? {} : { prune: settings.compaction.prune }),
          },
        }
      : {}),
    ...(skillFolders.length > 0 ? { skills: { paths: skillFolders } } : {}),
    ...(settings.agents || settings.compaction?.model
      ? {
          agent: {
            ...Object.fromEntries(
              Object.entries(settings.agents ?? {}).map(([name, agent]) => [
                name,
                {
                  ...(name === 'build' ? {} : { mode: 'primary' }),
                  permission: { ...agent.tools, ...(Object.keys(agent.skills).length ? { skill: agent.skills } : {}) },
                },
              ]),
            ),
            // OpenCode's hidden compaction agent writes summaries with its own model where it names one.
            ...(settings.compaction?.model
              ? { compaction: { model: `${PROVIDER_ID}/${settings.compaction.model}` } }
              : {}),
          },
        }
      : {}),
  };
  writeFileSync(join(settings.home, runtime.configFile), `${JSON.stringify(config, null, 2)}\n`);
  for (const mark of runtime.freshInstallMarks) writeFileSync(join(settings.home, mark), '');
}

/** Makes `link` a link to `target`, replacing any link there in one step. */
export function linkInOneStep(target: string, link: string): void {
  const next = `${link}.next`;
  rmSync(next, { force: true });
  symlinkSync(target, next, 'dir');
  renameSync(next, link);
}

/**
 * Each skill as `SKILL.md` (front matter name and description, then the body) in its location
 * below the store's skill folder (`skills/<name>` when the kit names none); returns the folders
 * holding them. The folder is written anew: a server store serves one scenario after another, and
 * OpenCode would find a skill an earlier scenario left there beside this one's.
 */
function writeSkills(runtimeStore: string, skills: NonNullable<ServerSettings['skills']>): string[] {
  const root = join(runtimeStore, 'kit-skills');
  rmSync(root, { recursive: true, force: true });
  const parents = new Set<string>();
  for (const [name, skill] of Object.entries(skills)) {
    const directory = join(root, skill.location ?? join('skills', name));
    mkdirSync(directory, { recursive: true });
    writeFileSync(
      join(directory, 'SKILL.md'),
      `---\nname: ${name}\ndescription: ${JSON.stringify(skill.description)}\n---\n\n${skill.body}\n`,
    );
    parents.add(dirname(directory));
  }
  return [...parents];
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      probe.close(() => resolve(port));
    });
  });
}

/** The server and everything it started (shell commands of the bash tool), found through /proc. */
function killTree(pid: number): void {
  for (const victim of [pid, ...descendants(pid)]) {
    try {
      process.kill(victim, 'SIGKILL');
    } catch {
      // Already gone.
    }
  }
}

function descendants(root: number): number[] {
  const children = new Map<number, number[]>();
  let entries: string[] = [];
  try {
    entries = readdirSync('/proc');
  } catch {
    return [];
  }
  for (const entry of entries) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const parent = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      children.set(parent, [...(children.get(parent) ?? []), Number(entry)]);
    } catch {
      // Gone meanwhile.
    }
  }
  const found: number[] = [];
  const walk = (pid: number) => {
    for (const child of children.get(pid) ?? []) {
      found.push(child);
      walk(child);
    }
  };
  walk(root);
  return found;
}
