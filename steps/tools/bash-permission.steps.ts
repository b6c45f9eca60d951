import { existsSync, readFileSync } from 'node:fs';
import { Given, Then, When } from '@cucumber/cucumber';
import { expect } from 'chai';
import { toolCall as call, toolCallsTurn } from '../../harness/provider/turns.js';
import { quote } from '../../harness/means/shell-commands.js';
import { placeOfLine } from '../../harness/means/managed-file.js';
import { toolCall } from '../support/tool-calls.js';
import { withWorkspaces } from '../support/workspaces.js';
import { NothingToJudge, SuiteDefect } from '../../harness/report/outcome.js';
import type { KitWorld } from '../support/world.js';

/** Scripts a call of the runtime's declared shell tool; without one (or without a workdir field when one is wanted), not applicable. */
function callShell(world: KitWorld, id: string, command: string, workdir?: string): 'skipped' | undefined {
  const shell = world.driver.description.shell;
  if (!shell || (workdir !== undefined && !shell.workdirField)) {
    return world.notApplicable(
      `the runtime declares no shell tool${shell ? ' with a structured working directory' : ''}`,
    );
  }
  const input: Record<string, unknown> = { [shell.commandField]: withWorkspaces(world, command) };
  if (workdir !== undefined) input[shell.workdirField!] = withWorkspaces(world, workdir);
  world.provider.enqueue({ turn: toolCallsTurn([call(id, shell.tool, input)]) });
  return undefined;
}

/** The managed file each scripted search greps, by the search call's ID. */
const searched = new WeakMap<KitWorld, Map<string, string>>();

/** Searching with an ordinary tool: the runtime's shell greps a managed file by its absolute path (TOO-05). */
Given(
  'the provider searches the complete output of call {string} for the line {string} with the shell as {string}',
  async function (this: KitWorld, of: string, line: string, id: string) {
    const path = (await toolCall(this, of)).outputPath;
    // Whether and when the complete output is saved is TOO-04's and TOO-06's: a history that does not
    // show its path yet leaves the search nothing to find.
    if (path === undefined)
      throw new NothingToJudge(`call "${of}" has no complete output path in the history to search yet`);
    searched.set(this, (searched.get(this) ?? new Map<string, string>()).set(id, path));
    return callShell(this, id, `grep -n -x -F ${quote(line)} ${quote(path)}`);
  },
);

/**
 * The search found line `number` of the tool's raw output, reading `line`, where the managed file
 * holds it: the file keeps the output as the runtime's tool returned it, and a shell's comes wrapped
 * (lines of the runtime's own before the command's output, say), so grep numbers the line by its
 * place in the file, `number` or later.
 */
Then(
  'call {string} found line {int} reading {string}',
  async function (this: KitWorld, id: string, number: number, line: string) {
    const settled = await toolCall(this, id);
    expect(settled.status, `status of "${id}"`).to.equal('success');
    const path = searched.get(this)?.get(id);
    const place =
      path === undefined
        ? number
        : existsSync(path)
          ? placeOfLine(readFileSync(path, 'utf8'), number, line)
          : undefined;
    expect(place, `line ${number} of the raw output, "${line}", in the managed file ${path}`).to.not.equal(undefined);
    // A shell may label its output's first line with words of its own ("Output: 19:line 17").
    const found = `${place}:${line}`;
    expect(
      (settled.output ?? '').split('\n').some((shown) => shown === found || shown.endsWith(` ${found}`)),
      `call "${id}" shows "${found}"\nit shows:\n${settled.output}`,
    ).to.equal(true);
  },
);

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
  'the agent {string} has the rule {permission-rule} for the shell',
  async function (this: KitWorld, agent: string, rule: 'allow' | 'deny' | 'ask') {
    const shell = this.driver.description.shell;
    if (!shell) return this.notApplicable('the runtime declares no shell tool');
    await this.driver.call('agent.define', { name: agent, tools: { [shell.tool]: rule }, skills: {} });
    return undefined;
  },
);

/**
 * Whether the session's drain settles or first asks for permission. A wait the runtime refuses
 * (nothing waits, and nothing can come now) asked nothing: the idle answer it may precede decides.
 */
async function settledOrAsked(world: KitWorld, sessionId: string): Promise<'idle' | 'asked'> {
  const idle = world.driver.idle(sessionId).then(() => 'idle' as const);
  const asked = world.driver.call('permission.wait', { sessionId }).then(
    () => 'asked' as const,
    () => 'refused' as const,
  );
  const ended = await Promise.race([idle, asked]);
  return ended === 'refused' ? idle : ended;
}

/** The session's drain ends with no call asking: one that asks first fails here, not at a timeout. */
When('session {string} settles without asking for permission', async function (this: KitWorld, name: string) {
  const sessionId = this.session(name).id;
  if ((await settledOrAsked(this, sessionId)) === 'idle') return;
  const { requests } = await this.driver.call('permission.pending', { sessionId });
  expect.fail(
    `session "${name}" asked for permission to run ${requests.map((r) => r.tool).join(', ')} before it settled`,
  );
});

/**
 * Lets session `name` settle, approving every call it asks permission for; whether it asked, for the
 * step that compares another session with it.
 */
async function settleApproving(world: KitWorld, name: string): Promise<boolean> {
  const sessionId = world.session(name).id;
  let asked = false;
  while ((await settledOrAsked(world, sessionId)) === 'asked') {
    asked = true;
    const { requests } = await world.driver.call('permission.pending', { sessionId });
    for (const request of requests) await world.driver.call('permission.reply', { id: request.id, approve: true });
  }
  return asked;
}

When('session {string} settles, what it asks approved', async function (this: KitWorld, name: string) {
  this.askedForPermission.set(name, await settleApproving(this, name));
});

/** The same run of the shell asks, or does not, in both sessions: the seeds fix no built-in rule of the build agent. */
Then(
  'session {string} settles, asking for permission where session {string} asked',
  async function (this: KitWorld, name: string, other: string) {
    const before = this.askedForPermission.get(other);
    if (before === undefined) throw new SuiteDefect(`no step let session "${other}" settle, noting whether it asked`);
    const asked = await settleApproving(this, name);
    expect(
      asked,
      `whether session "${name}" asked for permission, as session "${other}" ${before ? 'did' : 'did not'}`,
    ).to.equal(before);
  },
);

Then('no tool call waits for permission', async function (this: KitWorld) {
  const { requests } = await this.driver.call('permission.pending', { sessionId: this.session().id });
  expect(requests, 'waiting permission requests').to.deep.equal([]);
});
