import { existsSync, lstatSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, isAbsolute, join, relative } from 'node:path';
import { Given, When, Then, type DataTable } from '@cucumber/cucumber';
import { expect } from 'chai';
import type { HistoryMessage, PtyEnvironmentResult } from '../harness/protocol/protocol.js';
import { producedText, type ProducedText } from '../harness/means/shell-commands.js';
import { NOT_APPLICABLE } from '../harness/report/scenario-results.js';
import { request, scriptCalls } from './provider.steps.js';
import type { KitWorld } from './support/world.js';

/**
 * Tool output bounding, the read and apply_patch tools, the runtime's own shell and its
 * permissions, and the PTY environment. The kit's `produce` tool returns whatever text or
 * structured value the scenario gives it, so every check compares the runtime's Model Tool
 * Output with the exact raw output it received.
 */

type ToolMessage = Extract<HistoryMessage, { role: 'tool' }>;

const produced = new WeakMap<KitWorld, Map<string, string>>();
/** The scenario's latest PTY and every value the caller or the host overlay asked for. */
const ptys = new WeakMap<KitWorld, { view: PtyEnvironmentResult; requested: string[] }>();
const overlays = new WeakMap<KitWorld, string[]>();

const numberedLines = (count: number, suffix = ''): ProducedText => ({ kind: 'numbered', count, suffix });
const numbered = (count: number) => producedText(numberedLines(count));
const items = (count: number) => ({
  items: Array.from({ length: count }, (_, i) => ({ id: i + 1, name: `item ${i + 1}` })),
});
/** Lines as the model reads them: a trailing newline opens no further line. */
const lineCount = (text: string) => (text === '' ? 0 : text.replace(/\n$/, '').split('\n').length);

/** Scripts a `produce` call printing `text`, or one with other input (which a shell cannot express). */
function produce(
  world: KitWorld,
  id: string,
  text: ProducedText,
  input?: Record<string, unknown>,
): 'skipped' | undefined {
  const raw = produced.get(world) ?? new Map<string, string>();
  produced.set(world, raw.set(id, producedText(text)));
  if (input) return scriptCalls(world, [{ id, name: 'produce', input: { text: producedText(text), ...input } }]);
  world.provider.enqueue({ turn: { kind: 'tool-calls', calls: [world.means.produce(id, text)] } });
  return undefined;
}

function raw(world: KitWorld, id: string): string {
  const text = produced.get(world)?.get(id);
  if (text === undefined) throw new Error(`the scenario scripted no produce call "${id}" with text`);
  return text;
}

export async function toolCall(world: KitWorld, callId: string): Promise<ToolMessage> {
  const found = (await world.driver.history(world.session().id)).filter(
    (m): m is ToolMessage => m.role === 'tool' && m.callId === callId,
  );
  if (found.length === 0) throw new Error(`the history has no tool call "${callId}"`);
  return found.at(-1)!;
}

async function structured<T>(world: KitWorld, callId: string): Promise<T> {
  const call = await toolCall(world, callId);
  expect(call.structured, `the structured result of "${callId}"`).to.not.equal(undefined);
  return call.structured as T;
}

function expectWithin(text: string, lines: number, bytes: number, what: string): void {
  expect(lineCount(text), `lines of ${what}`).to.be.at.most(lines);
  expect(Buffer.byteLength(text, 'utf8'), `UTF-8 bytes of ${what}`).to.be.at.most(bytes);
}

// ---- Model Tool Output

Given(
  'the tool output limit is {int} lines or {int} bytes',
  async function (this: KitWorld, lines: number, bytes: number) {
    await this.driver.call('tool-output.configure', { maxLines: lines, maxBytes: bytes });
  },
);

Given(
  'the provider calls produce {string} with {int} numbered lines',
  function (this: KitWorld, id: string, count: number) {
    return produce(this, id, numberedLines(count));
  },
);

Given(
  'the provider calls produce {string} with {int} numbered lines ending in {string}',
  function (this: KitWorld, id: string, count: number, suffix: string) {
    return produce(this, id, numberedLines(count, suffix));
  },
);

Given(
  'the provider calls produce {string} with {int} numbered lines it keeps in {string}',
  function (this: KitWorld, id: string, count: number, file: string) {
    return produce(this, id, numberedLines(count), { keptAt: file });
  },
);

Given(
  'the provider calls produce {string} with one line of {int} {string}',
  function (this: KitWorld, id: string, count: number, char: string) {
    // A shell prints one-byte characters only this way; others need the kit's own produce tool.
    const oneByte = Buffer.byteLength(char) === char.length;
    return produce(this, id, { kind: 'repeated', char, count }, oneByte ? undefined : {});
  },
);

Given(
  'the provider calls produce {string} with {int} numbered lines, each ending in {word}, the last one too',
  function (this: KitWorld, id: string, count: number, ending: string) {
    const endings: Record<string, string> = { LF: '\n', CRLF: '\r\n' };
    if (!endings[ending]) throw new Error(`a line ends in LF or CRLF, not "${ending}"`);
    return produceExactly(
      this,
      id,
      Array.from({ length: count }, (_, i) => `line ${i + 1}${endings[ending]}`).join(''),
    );
  },
);

Given('the provider calls produce {string} with an empty output', function (this: KitWorld, id: string) {
  return produceExactly(this, id, '');
});

/** A `produce` call returning exactly `text`, through the kit's own tool. */
function produceExactly(world: KitWorld, id: string, text: string): 'skipped' | undefined {
  produced.set(world, (produced.get(world) ?? new Map<string, string>()).set(id, text));
  return scriptCalls(world, [{ id, name: 'produce', input: { text } }]);
}

Given(
  'the provider calls produce {string} with only a structured result of {int} items',
  function (this: KitWorld, id: string, count: number) {
    return scriptCalls(this, [{ id, name: 'produce', input: { structured: items(count) } }]);
  },
);

Then(
  'the output of call {string} is within {int} lines and {int} bytes',
  async function (this: KitWorld, id: string, lines: number, bytes: number) {
    expectWithin((await toolCall(this, id)).output ?? '', lines, bytes, `the output of "${id}"`);
  },
);

Then('the output of call {string} is bounded', async function (this: KitWorld, id: string) {
  const call = await toolCall(this, id);
  expect(call.status, `status of "${id}"`).to.equal('success');
  expect(this.means.shows(call.output ?? '', raw(this, id)), `the output of "${id}" is the whole raw output`).to.equal(
    false,
  );
});

Then('the output of call {string} is exactly what the tool returned', async function (this: KitWorld, id: string) {
  const call = await toolCall(this, id);
  expect(this.means.shows(call.output ?? '', raw(this, id)), `the output of "${id}" is the raw output`).to.equal(true);
  expect(call.outputPath, `a complete output path for "${id}"`).to.equal(undefined);
});

Then('the output of call {string} keeps its first and last lines', async function (this: KitWorld, id: string) {
  const output = (await toolCall(this, id)).output ?? '';
  const rawLines = raw(this, id).split('\n');
  expect(
    this.means.showsFirstAndLastLines(output, rawLines[0]!, rawLines.at(-1)!),
    `the output of "${id}" keeps "${rawLines[0]}" and "${rawLines.at(-1)}"`,
  ).to.equal(true);
});

Then('the output of call {string} begins and ends like the tool output', async function (this: KitWorld, id: string) {
  const output = (await toolCall(this, id)).output ?? '';
  const text = raw(this, id);
  expect(this.means.keepsEnds(output, text, 20), 'the output begins and ends as the raw output').to.equal(true);
});

Then('the output of call {string} names its complete output path', async function (this: KitWorld, id: string) {
  const call = await toolCall(this, id);
  expect(call.outputPath, `the typed complete output path of "${id}"`).to.be.a('string');
  expect(call.output).to.include(call.outputPath!);
});

Then(
  'the complete output of call {string} holds exactly what the tool returned',
  async function (this: KitWorld, id: string) {
    const path = (await toolCall(this, id)).outputPath!;
    expect(this.means.shows(readFileSync(path, 'utf8'), raw(this, id)), `${path} holds the raw output`).to.equal(true);
  },
);

Then('call {string} has no complete output path', async function (this: KitWorld, id: string) {
  expect((await toolCall(this, id)).outputPath).to.equal(undefined);
});

Then(
  'call {string} keeps its complete output in {string} of the workspace',
  async function (this: KitWorld, id: string, file: string) {
    expect((await toolCall(this, id)).outputPath).to.equal(join(this.session().workspace, file));
  },
);

Then('call {string} settled as {word}', async function (this: KitWorld, id: string, status: string) {
  expect((await toolCall(this, id)).status, `status of "${id}"`).to.equal(status);
});

Then(
  'request {int} shows the model the output of call {string}',
  async function (this: KitWorld, n: number, id: string) {
    const sent = request(this, n)
      .messages.filter((m) => m.role === 'tool' && m.toolCallId === id)
      .map((m) => m.text);
    expect(sent).to.deep.equal([(await toolCall(this, id)).output]);
  },
);

Then(
  'call {string} keeps its structured result of {int} items',
  async function (this: KitWorld, id: string, count: number) {
    expect(await structured(this, id)).to.deep.equal(items(count));
  },
);

Then('the output of call {string} previews its structured result as JSON', async function (this: KitWorld, id: string) {
  expect((await toolCall(this, id)).output ?? '').to.match(/^\s*\{/);
});

Then(
  'the complete output of call {string} is its structured result as JSON',
  async function (this: KitWorld, id: string) {
    const call = await toolCall(this, id);
    expect(JSON.parse(readFileSync(call.outputPath!, 'utf8'))).to.deep.equal(call.structured);
  },
);

Then(
  'no durable tool output is over {int} lines or {int} bytes',
  async function (this: KitWorld, lines: number, bytes: number) {
    const outputs = (await this.driver.history(this.session().id)).flatMap((m) =>
      m.role === 'tool' ? [m.output ?? ''] : [],
    );
    expect(outputs.length, 'tool results in the history').to.be.greaterThan(0);
    for (const output of outputs) expectWithin(output, lines, bytes, 'a durable tool output');
  },
);

// ---- Managed Tool Output Files

async function managedFiles(world: KitWorld): Promise<string[]> {
  return (await world.driver.call('tool-output.files')).files;
}

Then('the managed output directory holds {int} file(s)', async function (this: KitWorld, count: number) {
  expect(await managedFiles(this)).to.have.length(count);
});

Then(
  'calls {string} and {string} have different managed files in one flat directory',
  async function (this: KitWorld, first: string, second: string) {
    const { directory, files } = await this.driver.call('tool-output.files');
    const paths = [(await toolCall(this, first)).outputPath, (await toolCall(this, second)).outputPath];
    expect(paths[0]).to.not.equal(paths[1]);
    for (const path of paths) {
      expect(files, 'the managed directory').to.include(path);
      expect(dirname(path!)).to.equal(directory);
    }
    for (const file of files) expect(lstatSync(file).isFile(), `${file} is a plain file`).to.equal(true);
  },
);

Then('every managed file holds exactly what call {string} returned', async function (this: KitWorld, id: string) {
  for (const file of await managedFiles(this))
    expect(this.means.shows(readFileSync(file, 'utf8'), raw(this, id)), `${file} holds the raw output`).to.equal(true);
});

Given('managed output files cannot be written', async function (this: KitWorld) {
  await this.driver.call('fault.tool-output-writes', { mode: 'failing' });
});

// An environmental fault every runtime can meet: a file where its managed output directory goes.
Given('the managed output directory cannot be created', async function (this: KitWorld) {
  const { directory } = await this.driver.call('tool-output.files');
  if (relative(this.dir, directory).startsWith('..') || isAbsolute(relative(this.dir, directory))) {
    throw new Error(
      `the managed output directory ${directory} lies outside the scenario's directory ${this.dir}: the kit blocks only its own`,
    );
  }
  rmSync(directory, { recursive: true, force: true });
  mkdirSync(dirname(directory), { recursive: true });
  writeFileSync(directory, 'a file where the managed output directory goes\n');
});

Given('managed output file writes hang once complete', async function (this: KitWorld) {
  await this.driver.call('fault.tool-output-writes', { mode: 'holding' });
});

When('a managed output file write hangs', async function (this: KitWorld) {
  await this.driver.call('tool-output.held');
});

When('the managed output files expire', async function (this: KitWorld) {
  const days = Number(this.declaredText('tool-output.retention-days'));
  this.now = new Date(Date.parse(this.now) + (days + 1) * 86_400_000).toISOString();
  await this.driver.setClock(this.now);
});

Then('the runtime reported a diagnostic for operators', async function (this: KitWorld) {
  expect((await this.driver.call('diagnostics')).diagnostics).to.have.length.greaterThan(0);
});

Given(
  'the provider calls read {string} on the complete output of call {string}',
  async function (this: KitWorld, id: string, of: string) {
    const path = (await toolCall(this, of)).outputPath;
    this.provider.enqueue({ turn: { kind: 'tool-calls', calls: [{ id, name: 'read', input: { path } }] } });
  },
);

// ---- The read tool

interface FilePage {
  encoding: string;
  content: string;
  offset?: number;
  next?: number | null;
}

Given(
  'the workspace {string} has a file {string} of {int} numbered lines',
  function (this: KitWorld, workspace: string, file: string, count: number) {
    write(join(this.workspace(workspace), file), `${numbered(count)}\n`);
  },
);

Given(
  'the workspace {string} has a binary file {string} of bytes {string}',
  function (this: KitWorld, workspace: string, file: string, hex: string) {
    write(join(this.workspace(workspace), file), Buffer.from(hex.replace(/\s/g, ''), 'hex'));
  },
);

Given(
  'the workspace {string} has a directory {string}',
  function (this: KitWorld, workspace: string, directory: string) {
    mkdirSync(join(this.workspace(workspace), directory), { recursive: true });
  },
);

Given(
  'the provider calls read {string} on the absolute path of {string} in the workspace {string}',
  function (this: KitWorld, id: string, file: string, workspace: string) {
    this.provider.enqueue({
      turn: {
        kind: 'tool-calls',
        calls: [{ id, name: 'read', input: { path: join(this.workspace(workspace), file) } }],
      },
    });
  },
);

Then('call {string} read {string}', async function (this: KitWorld, id: string, text: string) {
  const call = await toolCall(this, id);
  expect(call.status).to.equal('success');
  expect(call.output).to.include(text);
});

Then('call {string} read the {int} numbered lines', async function (this: KitWorld, id: string, count: number) {
  expect((await structured<FilePage>(this, id)).content.replace(/\n$/, '')).to.equal(numbered(count));
});

Then(
  'call {string} was refused without revealing {string}',
  async function (this: KitWorld, id: string, secret: string) {
    const call = await toolCall(this, id);
    expect(call.status, `status of "${id}"`).to.equal('error');
    expect(call.output).to.not.include(secret);
  },
);

Then(
  'call {string} listed, with next offset {word}:',
  async function (this: KitWorld, id: string, next: string, table: DataTable) {
    const page = await structured<{ entries: { name: string; type: string }[]; next: number | null }>(this, id);
    expect(page.entries.map(({ name, type }) => ({ name, type }))).to.deep.equal(table.hashes());
    expect(page.next).to.equal(next === 'none' ? null : Number(next));
  },
);

Then(
  'call {string} returned lines {int} to {int} with next offset {int}',
  async function (this: KitWorld, id: string, from: number, to: number, next: number) {
    const page = await structured<FilePage>(this, id);
    const expected = Array.from({ length: to - from + 1 }, (_, i) => `line ${from + i}`).join('\n');
    expect([page.encoding, page.content.replace(/\n$/, ''), page.next]).to.deep.equal(['utf-8', expected, next]);
  },
);

Then(
  'call {string} returned a first page of consecutive lines and the offset after it',
  async function (this: KitWorld, id: string) {
    const page = await structured<FilePage>(this, id);
    const lines = page.content.replace(/\n$/, '').split('\n');
    expect(lines).to.deep.equal(lines.map((_, i) => `line ${i + 1}`));
    expect(page.next).to.equal(lines.length + 1);
  },
);

Then('call {string} returned the bytes {string} as base64', async function (this: KitWorld, id: string, hex: string) {
  const page = await structured<FilePage>(this, id);
  expect([page.encoding, page.content]).to.deep.equal([
    'base64',
    Buffer.from(hex.replace(/\s/g, ''), 'hex').toString('base64'),
  ]);
});

// ---- apply_patch

/** `{workspace:<name>}` in a patch stands for that workspace's absolute path. */
Given('the provider calls apply_patch {string} with:', function (this: KitWorld, id: string, text: string) {
  const patch = text.replace(/\{workspace:([\w-]+)\}/g, (_, name: string) => this.workspace(name));
  this.provider.enqueue({ turn: { kind: 'tool-calls', calls: [{ id, name: 'apply_patch', input: { patch } }] } });
});

Then(
  'the file {string} in the workspace {string} holds:',
  function (this: KitWorld, file: string, workspace: string, text: string) {
    expect(readFileSync(join(this.workspace(workspace), file), 'utf8').replace(/\n$/, '')).to.equal(text);
  },
);

Then('the workspace {string} has no file {string}', function (this: KitWorld, workspace: string, file: string) {
  expect(existsSync(join(this.workspace(workspace), file)), `${file} exists`).to.equal(false);
});

Then('call {string} reports:', async function (this: KitWorld, id: string, table: DataTable) {
  type Op = { op: string; path: string };
  const report = await structured<{ applied: Op[]; failed?: Op; notApplied?: Op[] }>(this, id);
  const rows = [
    ...report.applied.map((o) => ({ outcome: 'applied', op: o.op, path: o.path })),
    ...(report.failed ? [{ outcome: 'failed', op: report.failed.op, path: report.failed.path }] : []),
    ...(report.notApplied ?? []).map((o) => ({ outcome: 'not applied', op: o.op, path: o.path })),
  ];
  expect(rows).to.deep.equal(table.hashes());
});

// ---- The runtime's own shell

/** `{workspace:<name>}` stands for that workspace's absolute path. */
function withWorkspaces(world: KitWorld, text: string): string {
  return text.replace(/\{workspace:([\w-]+)\}/g, (_, name: string) => world.workspace(name));
}

/** Scripts a call of the runtime's declared shell tool; without one (or without a workdir field when one is wanted), not applicable. */
function callShell(world: KitWorld, id: string, command: string, workdir?: string): 'skipped' | undefined {
  const shell = world.driver.description.shell;
  if (!shell || (workdir !== undefined && !shell.workdirField)) {
    world.log(
      `${NOT_APPLICABLE}the runtime declares no shell tool${shell ? ' with a structured working directory' : ''}`,
    );
    return 'skipped';
  }
  const input: Record<string, unknown> = { [shell.commandField]: withWorkspaces(world, command) };
  if (workdir !== undefined) input[shell.workdirField!] = withWorkspaces(world, workdir);
  world.provider.enqueue({ turn: { kind: 'tool-calls', calls: [{ id, name: shell.tool, input }] } });
  return undefined;
}

Given(
  'the provider runs the shell command {string} as {string}',
  function (this: KitWorld, command: string, id: string) {
    return callShell(this, id, command);
  },
);

Given(
  'the provider runs the shell command {string} as {string} working in {string}',
  function (this: KitWorld, command: string, id: string, workdir: string) {
    return callShell(this, id, command, workdir);
  },
);

Given(
  'the agent {string} has the rule {word} for the shell',
  async function (this: KitWorld, agent: string, rule: string) {
    if (!['allow', 'deny', 'ask'].includes(rule)) throw new Error(`a rule is allow, deny or ask, not "${rule}"`);
    const shell = this.driver.description.shell;
    if (!shell) {
      this.log(`${NOT_APPLICABLE}the runtime declares no shell tool`);
      return 'skipped';
    }
    await this.driver.call('agent.define', {
      name: agent,
      tools: { [shell.tool]: rule as 'allow' | 'deny' | 'ask' },
      skills: {},
    });
    return undefined;
  },
);

Then('no tool call waits for permission', async function (this: KitWorld) {
  const { requests } = await this.driver.call('permission.pending', { sessionId: this.session().id });
  expect(requests, 'waiting permission requests').to.deep.equal([]);
});

// ---- PTY environment

const envTable = (table: DataTable) => Object.fromEntries(table.hashes().map((row) => [row.name!, row.value!]));

Given(
  'the host overlay for PTYs in the workspace {string} sets:',
  async function (this: KitWorld, workspace: string, table: DataTable) {
    const env = envTable(table);
    overlays.set(this, [...(overlays.get(this) ?? []), ...Object.values(env)]);
    await this.driver.call('pty.overlay.set', { location: this.workspace(workspace), env });
  },
);

When(
  /^a PTY is requested in the workspace "([^"]+)"(?: working in "([^"]+)")?( from a standalone server)? with:$/,
  async function (
    this: KitWorld,
    workspace: string,
    cwd: string | undefined,
    standalone: string | undefined,
    table: DataTable,
  ) {
    const location = this.workspace(workspace);
    const server = standalone ? 'standalone' : 'hosted';
    const env = envTable(table);
    const view = await this.driver.call('pty.environment', { location, env, server, ...(cwd ? { cwd } : {}) });
    ptys.set(this, { view, requested: [...Object.values(env), ...(overlays.get(this) ?? [])] });
  },
);

function pty(world: KitWorld): PtyEnvironmentResult {
  return requestedPty(world).view;
}

function requestedPty(world: KitWorld) {
  const requested = ptys.get(world);
  if (!requested) throw new Error('the scenario requested no PTY yet');
  return requested;
}

Then('the PTY environment has:', function (this: KitWorld, table: DataTable) {
  const env = pty(this).env;
  expect(Object.fromEntries(Object.keys(envTable(table)).map((name) => [name, env[name]]))).to.deep.equal(
    envTable(table),
  );
});

Then('the PTY environment has none of {string}', function (this: KitWorld, names: string) {
  const env = pty(this).env;
  for (const name of names.split(/,\s*/)) expect(env, `the PTY environment`).to.not.have.property(name);
});

Then('the PTY environment forces {string} over the caller and the overlay', function (this: KitWorld, names: string) {
  const {
    view: { env },
    requested: overridden,
  } = requestedPty(this);
  for (const name of names.split(/,\s*/)) {
    expect(env[name], `${name} in the PTY environment`).to.be.a('string').and.not.equal('');
    expect(overridden, `${name} is forced`).to.not.include(env[name]);
  }
});

Then(
  'the PTY works in {string} of the workspace {string}, as the overlay observed',
  function (this: KitWorld, cwd: string, workspace: string) {
    const expected = join(this.workspace(workspace), cwd);
    expect([pty(this).cwd, pty(this).env.KIT_PTY_CWD]).to.deep.equal([expected, expected]);
  },
);

function write(path: string, content: string | Buffer): void {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, content);
}
