import { realpathSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { Given, Then, type DataTable } from '@cucumber/cucumber';
import { expect } from 'chai';
import type { KitWorld } from '../support/world.js';
import { plant } from '../support/workspaces.js';
import { lastSystemMessage, type RequestText, request, requestLabel, textOf, toldAfter } from '../support/requests.js';
import { inOrder } from '../support/text.js';

/**
 * The seeds leave open where the global file stands in the aggregate and whether project files run
 * from the nearest to the root or back: the table lists the global text, then the project texts
 * nearest first, and any of the four orders passes.
 */
function expectInstructions(world: KitWorld, text: string, table: DataTable): void {
  const rows = table.raw();
  const global = rows.filter(([kind]) => kind === 'global').map(([, line]) => line!);
  const project = rows.filter(([kind]) => kind === 'project').map(([, line]) => line!);
  if (global.length + project.length !== rows.length) throw new Error('an instruction row is global or project');
  const orders = [project, [...project].reverse()].flatMap((files) => [
    { reading: 'global-first', lines: [...global, ...files] },
    { reading: 'project-first', lines: [...files, ...global] },
  ]);
  const allowed = orders.find((order) => inOrder(text, order.lines));
  expect(
    allowed !== undefined,
    `the instructions ${JSON.stringify([...global, ...project])} in an order the seeds allow, in:\n${text}`,
  ).to.equal(true);
  if (global.length > 0 && project.length > 0) world.tookReading('instructions.order', allowed!.reading);
}

Then(
  '{request-text} contains the instructions in an order the seeds allow:',
  function (this: KitWorld, part: RequestText, table: DataTable) {
    expectInstructions(this, textOf(this, part), table);
  },
);

Then(
  'the last system message of request {int} begins with the declared text {string}',
  function (this: KitWorld, n: number, name: string) {
    expect(
      lastSystemMessage(this, n).startsWith(this.declaredText(name)),
      `starts with the runtime's ${name} text`,
    ).to.equal(true);
  },
);

/** A declared text about a file names it by its real path (`{path}`), links resolved. */
Then(
  /^the last system message of request (\d+) is the declared text "([^"]*)"(?: for the file "([^"]*)" in the workspace "([^"]*)")?$/,
  function (this: KitWorld, n: string, name: string, file: string | null, workspace: string | null) {
    const text = this.declaredText(name);
    const expected =
      file === null
        ? text
        : text.replace('{path}', `${realpathSync(join(this.workspace(workspace!), dirname(file)))}/${basename(file)}`);
    expect(lastSystemMessage(this, Number(n))).to.equal(expected);
  },
);

Then(
  'request {int} tells the model {text} after {string}',
  function (this: KitWorld, n: number, text: string, input: string) {
    const told = toldAfter(this, n, input);
    expect(
      told.filter((message) => message.includes(text)),
      `messages after "${input}" telling "${text}":\n${told.join('\n---\n')}`,
    ).to.have.length(1);
  },
);

/**
 * Whether the runtime observed a changed file at the boundary before request `n`: its new text
 * reaches the model there, wherever the runtime puts it (a message, a user turn, a baseline of its
 * own). A runtime that never tells it never observed the files (INS-01), whatever the scenario is about.
 */
Then('request {int} tells the model {string}', function (this: KitWorld, n: number, text: string) {
  expect(everythingSent(this, n).includes(text), `whether request ${n} carries "${text}" anywhere`).to.equal(true);
});

/**
 * The control of a check that something is not told: a runtime that tells nothing after the
 * prompt even when a file did change never tells a change at all, so the checks before showed nothing.
 */
Then(
  'request {int} tells the model {string} after {string}, or nothing above was judged',
  function (this: KitWorld, n: number, text: string, input: string) {
    const told = toldAfter(this, n, input);
    if (told.every((message) => message.trim() === '')) {
      this.notJudged(
        `${requestLabel(n)} tells nothing after "${input}" though a file changed: the runtime tells no change`,
      );
      return;
    }
    expect(
      told.filter((message) => message.includes(text)),
      `messages after "${input}" telling "${text}":\n${told.join('\n---\n')}`,
    ).to.have.length(1);
  },
);

Then(
  '{request} tells the model the instructions in an order the seeds allow, in one message after {string}:',
  function (this: KitWorld, n: number, input: string, table: DataTable) {
    const lines = table.raw().map(([, line]) => line!);
    const told = toldAfter(this, n, input);
    const carrying = told.filter((message) => lines.some((line) => message.includes(line)));
    expect(carrying, `messages after "${input}" telling ${JSON.stringify(lines)}`).to.have.length(1);
    expectInstructions(this, carrying[0]!, table);
  },
);

Then('{request} tells the model nothing after {string}', function (this: KitWorld, n: number, input: string) {
  expect(toldAfter(this, n, input).map((message) => message.trim())).to.deep.equal(['']);
});

Then(
  '{request} does not tell the model {string} after {string}',
  function (this: KitWorld, n: number, text: string, input: string) {
    expect(toldAfter(this, n, input).filter((message) => message.includes(text))).to.deep.equal([]);
  },
);

Then('{request} tells the model {string} once', function (this: KitWorld, n: number, text: string) {
  expect(everythingSent(this, n).split(text).length - 1, `times ${requestLabel(n)} carries "${text}"`).to.equal(1);
});

/** The text of request `n`, baseline and messages alike. */
function everythingSent(world: KitWorld, n: number): string {
  const { baseline, messages } = request(world, n);
  return [...baseline, ...messages.map((message) => message.text)].join('\n');
}

Given('the global instructions say {string}', function (this: KitWorld, text: string) {
  plant(join(this.workspace('home'), 'AGENTS.md'), text);
});
