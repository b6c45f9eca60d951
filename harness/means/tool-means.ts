import { existsSync, mkdirSync, readdirSync, readFileSync, watch, writeFileSync, type FSWatcher } from 'node:fs';
import { isAbsolute, join, sep } from 'node:path';
import {
  DEFAULT_READ_TOOL,
  type ReadDeclaration,
  type RuntimeDescription,
  type ShellDeclaration,
} from '../protocol/protocol.js';
import type { ScriptedToolCall } from '../provider/scripted-turn.js';
import {
  GATE_DIRECTORY,
  echoCommand,
  failCommand,
  failProducingCommand,
  gateCommand,
  produceCommand,
  produceThenGateCommand,
  producedText,
  quote,
  type ProducedText,
} from './shell-commands.js';

/** The tools the kit's scenarios script: the runtime offers them itself (`kit-tools`) or runs them as shell commands. */
export const KIT_TOOLS = ['echo', 'fail', 'gate', 'produce'] as const;

/** The kit commands that wait for and open a gate, for runtimes with the kit tools. */
export interface GateCommands {
  gateBlocked(name: string): Promise<void>;
  openGate(name: string): Promise<void>;
}

/**
 * What an output keeps of one end of the raw output: it shows it, it does not, or the end stands
 * only in the command line a shell echoed above the output. A cut that keeps the head of a shell's
 * own text keeps that line, which then tells nothing of the output's own head.
 */
export type EndKept = 'kept' | 'lost' | 'echoed';

/**
 * How a scenario reaches a runtime's tools. Steps script kit tool calls and observe them only
 * through this, so one scenario reads the same for a runtime with the kit tools and for a black
 * box with a shell.
 */
export interface ToolMeans {
  readonly name: 'kit-tools' | 'shell';
  /** A scripted call as the runtime can run it; undefined when these means cannot express it. */
  call(call: ScriptedToolCall): ScriptedToolCall | undefined;
  /** A `produce` call printing `produced`, then, given a gate, waiting at it before it ends. */
  produce(id: string, produced: ProducedText, gate?: string): ScriptedToolCall;
  /** A `fail` call whose message is `produced`. */
  fail(id: string, produced: ProducedText): ScriptedToolCall;
  /** A call of the runtime's own read tool on `path`, relative to the session's location. */
  read(id: string, path: string): ScriptedToolCall;
  /** The tool name a call of `name` has in the runtime's history and requests. */
  toolName(name: string): string;
  /** Whether a tool message of the history is a call of the kit tool `kitName`. */
  isCallOf(message: { name: string; callId: string }, kitName: string): boolean;
  /** Whether a tool output the runtime shows carries `expected`; a shell's output arrives wrapped. */
  shows(actual: string, expected: string): boolean;
  /**
   * The output exactly as the tool returned it, where the means can tell (a shell that declares the
   * status text it shows after a command's output); undefined where only `shows` can judge it. A
   * status text may follow a command's output directly or after a line break of its own, so an
   * output ending in a line break has two readings: with that line break and without it.
   */
  returned(actual: string): string[] | undefined;
  /** Whether an output keeps `line`, the first or the last line of the raw output, at its end. */
  keepsLine(actual: string, line: string, end: 'first' | 'last'): EndKept;
  /** Whether an output keeps `part`, the head or the tail of the raw output, at its end. */
  keepsEnd(actual: string, part: string, end: 'head' | 'tail'): EndKept;
  /** Resolves once a call is blocked on the gate. */
  gateBlocked(name: string): Promise<void>;
  openGate(name: string): Promise<void>;
}

export interface ShellMeansOptions {
  /** The directory holding every workspace of the scenario, where gate calls run. */
  workspaces: string;
  /** How long a gate may take to be blocked before the runtime counts as not calling it. */
  timeoutMs: number;
  /** The session's location, against which a read tool taking absolute paths only gets a relative one. */
  location?: () => string;
}

/**
 * The one place that decides the means per runtime: its own kit tools when it declares
 * `kit-tools`, otherwise its declared shell tool, otherwise the kit tools (which it then lacks).
 */
export function toolMeans(description: RuntimeDescription, gates: GateCommands, options: ShellMeansOptions): ToolMeans {
  const read = description.read ?? DEFAULT_READ_TOOL;
  if (description.capabilities.includes('kit-tools') || !description.shell)
    return kitToolMeans(gates, read, options.location);
  return shellMeans(description.shell, read, options);
}

/**
 * The runtime's own read tool under its declared name, its path in the declared field: a scripted
 * `read` call names the path `path`, as the kit's scenarios write it, relative to the session's
 * location or absolute; a tool that takes absolute paths only gets a relative one resolved against
 * the location. A call with no `path` is already the runtime's own (a runtime whose read tool is
 * `read` with its path elsewhere): mapping it again would lose its path. The other fields keep their
 * place, so an undeclared read tool gets the very input the scenario wrote.
 */
function readCall(read: ReadDeclaration, call: ScriptedToolCall, location?: () => string): ScriptedToolCall {
  if (call.name !== 'read' || call.rawInput !== undefined || !Object.hasOwn(call.input, 'path')) return call;
  const path = String(call.input.path);
  // Prefixed as written, not normalised: a `..` the scenario sends must reach the tool.
  const resolved = read.absolutePaths && location && !isAbsolute(path) ? `${location()}${sep}${path}` : path;
  const { offset, limit, ...rest } = call.input;
  const input = Object.fromEntries(
    Object.entries(rest).map(([field, value]) => (field === 'path' ? [read.pathField, resolved] : [field, value])),
  );
  return { ...call, name: read.tool, input: { ...input, ...lineRange(read, offset, limit) } };
}

/**
 * A scripted read's `offset` (one-based) and `limit` in the fields the runtime's read tool takes
 * them, counted as it counts: the seeds fix one-based offsets for a directory's pages, not how a
 * tool names or counts a file's lines.
 */
function lineRange(read: ReadDeclaration, offset: unknown, limit: unknown): Record<string, unknown> {
  if (typeof offset !== 'number' || !read.lines) {
    return { ...(offset === undefined ? {} : { offset }), ...(limit === undefined ? {} : { limit }) };
  }
  const { offsetField, zeroBased, limitField, endField } = read.lines;
  const first = zeroBased ? offset - 1 : offset;
  if (typeof limit !== 'number') return { [offsetField]: first };
  return endField
    ? { [offsetField]: first, [endField]: first + limit - 1 }
    : { [offsetField]: first, [limitField ?? 'limit']: limit };
}

/**
 * The means for a scenario at the runtime's own tool output limit: where the runtime declares that
 * limit for its shell alone (`limits.toolOutput.tool`), its shell, so that the output goes through
 * the one tool the limit bounds; otherwise the runtime's usual means.
 */
export function boundedToolMeans(
  description: RuntimeDescription,
  gates: GateCommands,
  options: ShellMeansOptions,
): ToolMeans {
  const bounded = description.limits?.toolOutput?.tool;
  if (bounded !== undefined && description.shell?.tool === bounded)
    return shellMeans(description.shell, description.read ?? DEFAULT_READ_TOOL, options);
  return toolMeans(description, gates, options);
}

/**
 * Whether a runtime's tool means cover a capability it does not declare: a declared shell runs the
 * kit tools (scenarios tagged `@needs:kit-tools`), except calls no shell command can express,
 * which the steps find not applicable one by one.
 */
export function meansCover(description: RuntimeDescription, capability: string): boolean {
  return capability === 'kit-tools' && description.shell !== undefined;
}

function kitToolMeans(gates: GateCommands, read: ReadDeclaration, location?: () => string): ToolMeans {
  return {
    name: 'kit-tools',
    call: (call) => readCall(read, call, location),
    produce: (id, produced, gate) => ({
      id,
      name: 'produce',
      input: { text: producedText(produced), ...(gate === undefined ? {} : { gate }) },
    }),
    fail: (id, produced) => ({ id, name: 'fail', input: { message: producedText(produced) } }),
    read: (id, path) => readCall(read, { id, name: 'read', input: { path } }, location),
    toolName: (name) => (name === 'read' ? read.tool : name),
    isCallOf: (message, kitName) => message.name === (kitName === 'read' ? read.tool : kitName),
    shows: (actual, expected) => actual === expected,
    returned: (actual) => [actual],
    keepsLine(actual, line, end) {
      const lines = actual.split('\n');
      return (end === 'first' ? lines[0] : lines.at(-1)) === line ? 'kept' : 'lost';
    },
    keepsEnd: (actual, part, end) =>
      (end === 'head' ? actual.startsWith(part) : actual.endsWith(part)) ? 'kept' : 'lost',
    gateBlocked: (name) => gates.gateBlocked(name),
    openGate: (name) => gates.openGate(name),
  };
}

/** A text as a JSON string holds it, without the quotes: how a structured display shows a command line. */
export const escaped = (text: string) => JSON.stringify(text).slice(1, -1);

function shellMeans(shell: ShellDeclaration, read: ReadDeclaration, options: ShellMeansOptions): ToolMeans {
  /** Which kit tool each scripted call ID stands for. */
  const scripted = new Map<string, string>();
  const status = shell.statusText === undefined ? undefined : statusPattern(shell.statusText);
  /** The status text alone, the line break before it left to the output. */
  const bareStatus = shell.statusText === undefined ? undefined : statusPattern(shell.statusText, false);
  /** A command's output without the exit status the tool declares it shows after it, with or without a line break. */
  const withoutStatus = (text: string) => (status ? text.replace(status, '') : text);
  /** Every command line scripted, which a shell may show above the command's output. */
  const lines = new Set<string>();
  /**
   * An output without the command lines the shell echoed (as written, or JSON-escaped in a
   * structured display): the command's text holds the very text its output is checked for, so a
   * check reading it would pass on a runtime that showed none of the output.
   */
  const shown = (text: string) =>
    [...lines].reduce((rest, line) => rest.split(line).join('').split(escaped(line)).join(''), withoutStatus(text));
  /** Whether `text`, which the output does not show, stands in a command line echoed above it. */
  const echoedOnly = (actual: string, text: string): EndKept => {
    const echoes = [...lines].flatMap((line) => [
      { echo: line, wanted: text },
      { echo: escaped(line), wanted: escaped(text) },
    ]);
    return echoes.some(({ echo, wanted }) => actual.includes(echo) && echo.includes(wanted)) ? 'echoed' : 'lost';
  };
  const command = (id: string, kitName: string, line: string): ScriptedToolCall => {
    scripted.set(id, kitName);
    lines.add(line);
    return { id, name: shell.tool, input: { [shell.commandField]: line } };
  };
  const isKitTool = (name: string) => (KIT_TOOLS as readonly string[]).includes(name);
  return {
    name: 'shell',
    call(call) {
      const input = call.input;
      // An input that does not decode is about the kit tool's own input handling: no command says it.
      if (call.rawInput !== undefined && isKitTool(call.name)) return undefined;
      switch (call.name) {
        case 'echo':
          return command(call.id, 'echo', echoCommand(String(input.text ?? '')));
        case 'fail':
          return command(call.id, 'fail', failCommand(String(input.message ?? 'failed')));
        case 'gate':
          return command(call.id, 'gate', gateCommand(String(input.name)));
        case 'produce':
          // Structured results and outputs a tool keeps itself have no shell equivalent.
          return typeof input.text === 'string' && Object.keys(input).length === 1
            ? command(call.id, 'produce', `printf '%s' ${quote(input.text)}`)
            : undefined;
        default:
          return readCall(read, call, options.location);
      }
    },
    produce: (id, produced, gate) =>
      command(id, 'produce', gate === undefined ? produceCommand(produced) : produceThenGateCommand(produced, gate)),
    fail: (id, produced) => command(id, 'fail', failProducingCommand(produced)),
    read: (id, path) => readCall(read, { id, name: 'read', input: { path } }, options.location),
    toolName: (name) => (isKitTool(name) ? shell.tool : name === 'read' ? read.tool : name),
    isCallOf: (message, kitName) =>
      isKitTool(kitName)
        ? message.name === shell.tool && scripted.get(message.callId) === kitName
        : message.name === (kitName === 'read' ? read.tool : kitName),
    shows: (actual, expected) => shown(actual).includes(expected.trimEnd()),
    returned(actual) {
      if (!status || !bareStatus) return undefined;
      const readings = [withoutStatus(actual), actual.replace(bareStatus, '')];
      return [...new Set(readings)];
    },
    // A shell may label the output's first line with words of its own ("Output: line 1").
    keepsLine(actual, line) {
      const wanted = line.trim();
      const outputLines = shown(actual)
        .split('\n')
        .map((shownLine) => shownLine.trim());
      if (outputLines.some((shownLine) => shownLine === wanted || shownLine.endsWith(` ${wanted}`))) return 'kept';
      return echoedOnly(actual, wanted);
    },
    // A shell tool shows text of its own around the command's output.
    keepsEnd: (actual, part) => (shown(actual).includes(part) ? 'kept' : echoedOnly(actual, part)),
    gateBlocked: (name) => gateLogged(options, name).then(() => undefined),
    async openGate(name) {
      const logged = gateLogging(options.workspaces, name);
      for (const workspace of logged.length > 0 ? logged : workspaceDirectories(options.workspaces)) {
        mkdirSync(join(workspace, GATE_DIRECTORY), { recursive: true });
        writeFileSync(join(workspace, GATE_DIRECTORY, name), '');
      }
    },
  };
}

/** The declared status text at the end of an output, `{status}` standing for any exit status. */
function statusPattern(text: string, lineBreak = true): RegExp {
  const escaped = text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace('\\{status\\}', '-?\\d+');
  return new RegExp(`${lineBreak ? '\\n?' : ''}${escaped}\\s*$`);
}

function workspaceDirectories(workspaces: string): string[] {
  // A gate still awaited when its scenario ended may see the scenario's directory removed.
  if (!existsSync(workspaces)) return [];
  return readdirSync(workspaces, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? [join(workspaces, entry.name)] : [],
  );
}

/** The workspaces whose gate.log names the gate. */
function gateLogging(workspaces: string, name: string): string[] {
  return workspaceDirectories(workspaces).filter((workspace) => {
    const log = join(workspace, 'gate.log');
    return existsSync(log) && readFileSync(log, 'utf8').split('\n').includes(name);
  });
}

/** No call blocked on a gate before the wait's deadline: the runtime never ran one. */
export class GateNeverBlocked extends Error {
  override name = 'GateNeverBlocked';
}

/** Waits, on file system events rather than a timer, until a gate.log names the gate. */
function gateLogged({ workspaces, timeoutMs }: ShellMeansOptions, name: string): Promise<string[]> {
  return new Promise((resolve, reject) => {
    const watchers: FSWatcher[] = [];
    const finish = (outcome: () => void) => {
      clearTimeout(timer);
      for (const watcher of watchers) watcher.close();
      outcome();
    };
    const check = () => {
      const logged = gateLogging(workspaces, name);
      if (logged.length > 0) finish(() => resolve(logged));
    };
    const timer = setTimeout(
      () =>
        finish(() =>
          reject(
            new GateNeverBlocked(
              `no shell command blocked on gate "${name}" within ${timeoutMs} ms: no gate.log names it`,
            ),
          ),
        ),
      timeoutMs,
    );
    for (const directory of [workspaces, ...workspaceDirectories(workspaces)]) watchers.push(watch(directory, check));
    check();
  });
}
