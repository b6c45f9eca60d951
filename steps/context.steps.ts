import { createHash } from 'node:crypto';
import { realpathSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { Given, When, Then, type DataTable } from '@cucumber/cucumber';
import { expect } from 'chai';
import type { KitSourceDeclaration } from '../harness/protocol/protocol.js';
import { conversation, request } from './provider.steps.js';
import type { KitWorld } from './support/world.js';

/** Kit sources render one line each; these are the lines of a baseline that the kit defined. */
const kitLines = (text: string) => text.split('\n').filter((line) => line.startsWith('kit/'));
const baselineOf = (world: KitWorld, n: number) => request(world, n).baseline.join('\n\n');
const systemMessages = (world: KitWorld, n: number) =>
  conversation(world, n)
    .filter((row) => row.role === 'system')
    .map((row) => row.content);

function lastSystemMessage(world: KitWorld, n: number): string {
  const found = systemMessages(world, n).at(-1);
  if (found === undefined) throw new Error(`request ${n} carries no system message after its baseline`);
  return found;
}

function declarations(table: DataTable): KitSourceDeclaration[] {
  return table.hashes().map((row) => ({
    key: row.key!,
    ...(row.removable ? { removable: row.removable === 'yes' } : {}),
    ...(row.latency ? { latency: Number(row.latency) } : {}),
  }));
}

Given(
  'the contributor {string} contributes the context sources:',
  async function (this: KitWorld, contributor: string, table: DataTable) {
    await this.driver.call('context.contributor.register', {
      location: this.session().workspace,
      contributor,
      sources: declarations(table),
    });
  },
);

Given('the contributor {string} contributes no context sources', async function (this: KitWorld, contributor: string) {
  await this.driver.call('context.contributor.register', {
    location: this.session().workspace,
    contributor,
    sources: [],
  });
});

Given(
  'the contributor {string} contributes the context sources in the workspace {string}:',
  async function (this: KitWorld, contributor: string, workspace: string, table: DataTable) {
    await this.driver.call('context.contributor.register', {
      location: this.workspace(workspace),
      contributor,
      sources: declarations(table),
    });
  },
);

Given('the contributor {string} is removed', async function (this: KitWorld, contributor: string) {
  await this.driver.call('context.contributor.remove', { location: this.session().workspace, contributor });
});

Given('the context source {string} has the value {string}', async function (this: KitWorld, key: string, json: string) {
  await this.driver.setSource(key, { value: JSON.parse(json) });
});

Given(
  'the context source {string} has the value {string}, which changes to {string} once it is read',
  async function (this: KitWorld, key: string, json: string, next: string) {
    await this.driver.setSource(key, { value: JSON.parse(json) }, { value: JSON.parse(next) });
  },
);

Given('the context source {string} is {word}', async function (this: KitWorld, key: string, state: string) {
  if (state !== 'unavailable' && state !== 'absent') throw new Error(`a source is unavailable or absent, not ${state}`);
  await this.driver.setSource(key, { state });
});

Given('the host environment sets {word} to {string}', async function (this: KitWorld, name: string, value: string) {
  await this.driver.call('host.env.set', { name, value });
});

When('durable writes of system messages fail', async function (this: KitWorld) {
  await this.driver.call('fault.system-message-writes', { failing: true });
});

When('durable writes of system messages work again', async function (this: KitWorld) {
  await this.driver.call('fault.system-message-writes', { failing: false });
});

Then('request {int} has the kit context in its baseline:', function (this: KitWorld, n: number, table: DataTable) {
  expect(kitLines(baselineOf(this, n))).to.deep.equal(table.raw().map(([line]) => line));
});

Then('the baseline of request {int} contains, in order:', function (this: KitWorld, n: number, table: DataTable) {
  expectInOrder(
    baselineOf(this, n),
    table.raw().map(([text]) => text!),
  );
});

Then('the baseline of request {int} does not contain {string}', function (this: KitWorld, n: number, text: string) {
  expect(baselineOf(this, n)).to.not.include(text);
});

Then(
  'the baselines of requests {int} and {int} are byte for byte the same',
  function (this: KitWorld, a: number, b: number) {
    expect(request(this, b).baseline).to.deep.equal(request(this, a).baseline);
  },
);

Then('request {int} has no system message', function (this: KitWorld, n: number) {
  expect(systemMessages(this, n)).to.deep.equal([]);
});

Then('request {int} has {int} system message(s)', function (this: KitWorld, n: number, count: number) {
  expect(systemMessages(this, n)).to.have.length(count);
});

Then('the last system message of request {int} is:', function (this: KitWorld, n: number, text: string) {
  expect(lastSystemMessage(this, n)).to.equal(text);
});

Then(
  'the last system message of request {int} contains, in order:',
  function (this: KitWorld, n: number, table: DataTable) {
    expectInOrder(
      lastSystemMessage(this, n),
      table.raw().map(([text]) => text!),
    );
  },
);

/**
 * The seeds leave open where the global file stands in the aggregate and whether project files run
 * from the nearest to the root or back: the table lists the global text, then the project texts
 * nearest first, and any of the four orders passes.
 */
function expectInstructions(text: string, table: DataTable): void {
  const rows = table.raw();
  const global = rows.filter(([kind]) => kind === 'global').map(([, line]) => line!);
  const project = rows.filter(([kind]) => kind === 'project').map(([, line]) => line!);
  if (global.length + project.length !== rows.length) throw new Error('an instruction row is global or project');
  const orders = [project, [...project].reverse()].flatMap((files) => [
    [...global, ...files],
    [...files, ...global],
  ]);
  const allowed = orders.some((order) => inOrder(text, order));
  expect(
    allowed,
    `the instructions ${JSON.stringify([...global, ...project])} in an order the seeds allow, in:\n${text}`,
  ).to.equal(true);
}

Then(
  'the baseline of request {int} contains the instructions in an order the seeds allow:',
  function (this: KitWorld, n: number, table: DataTable) {
    expectInstructions(baselineOf(this, n), table);
  },
);

Then(
  'the last system message of request {int} contains the instructions in an order the seeds allow:',
  function (this: KitWorld, n: number, table: DataTable) {
    expectInstructions(lastSystemMessage(this, n), table);
  },
);

Then(
  'the last system message of request {int} does not contain {string}',
  function (this: KitWorld, n: number, text: string) {
    expect(lastSystemMessage(this, n)).to.not.include(text);
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

Then(
  'the last system message of request {int} is the declared text {string}',
  function (this: KitWorld, n: number, name: string) {
    expect(lastSystemMessage(this, n)).to.equal(this.declaredText(name));
  },
);

Then(
  'the last system message of request {int} names the date {string}',
  function (this: KitWorld, n: number, date: string) {
    const text = lastSystemMessage(this, n);
    expect(
      dateRenderings(date).some((rendering) => text.includes(rendering)),
      `"${text}" names ${date}`,
    ).to.equal(true);
  },
);

Then(
  'the last system message of request {int} does not name the date {string}',
  function (this: KitWorld, n: number, date: string) {
    const text = lastSystemMessage(this, n);
    expect(dateRenderings(date).filter((rendering) => text.includes(rendering))).to.deep.equal([]);
  },
);

Then('request {int} carries its system message with the native system role', function (this: KitWorld, n: number) {
  const message = request(this, n).messages.at(-1);
  expect(message?.role, 'the last message of the request').to.equal('system');
});

Then(
  'request {int} carries its system message wrapped as declared in a user turn',
  function (this: KitWorld, n: number) {
    const fallback = this.systemFallback();
    expect(fallback, 'the runtime declares a fallback wrapper').to.not.equal(undefined);
    const lastUser = request(this, n).messages.findLast((message) => message.role === 'user');
    expect(
      lastUser && fallback!.unwrap(lastUser.text),
      'a user turn holding exactly one wrapped system message',
    ).to.be.a('string');
    expect(request(this, n).messages.some((message) => message.role === 'system')).to.equal(false);
  },
);

Then('request {int} uses the model {string}', function (this: KitWorld, n: number, model: string) {
  expect(request(this, n).model).to.equal(model);
});

/**
 * The snapshot keeps either the encoded value (core) or, in the checkpoint profile, the hash of
 * the rendered update text; for kit sources the kit knows that text, so both mean the same value.
 */
Then('the epoch holds {string} as {string}', async function (this: KitWorld, key: string, json: string) {
  const { snapshot } = await this.driver.call('epoch', { sessionId: this.session().id });
  const value = JSON.parse(json);
  const held = snapshot[key]?.value;
  const hashed =
    this.driver.description.profiles.includes('checkpoint') &&
    holdsHashOf(this, `${key} is now ${JSON.stringify(value)}`, held);
  expect(isDeepStrictEqual(held, value) || hashed, `the snapshot holds ${JSON.stringify(held)} for ${key}`).to.equal(
    true,
  );
});

Then(
  'the epoch holds the removal text {string} for {string}',
  async function (this: KitWorld, text: string, key: string) {
    const { snapshot } = await this.driver.call('epoch', { sessionId: this.session().id });
    expect(snapshot[key]?.removal).to.equal(text);
  },
);

Then('the epoch holds nothing for {string}', async function (this: KitWorld, key: string) {
  const { snapshot } = await this.driver.call('epoch', { sessionId: this.session().id });
  expect(snapshot).to.not.have.property(key);
});

Then('the session has no context epoch', async function (this: KitWorld) {
  expect((await this.driver.call('epoch', { sessionId: this.session().id })).baseline).to.equal(null);
});

Then('the epoch baseline is exactly the baseline sent in request {int}', async function (this: KitWorld, n: number) {
  expect((await this.driver.call('epoch', { sessionId: this.session().id })).baseline).to.equal(baselineOf(this, n));
});

/** `000` lets a user transcript show system messages or hide them; `001` (profile checkpoint) hides them. */
Then(
  /^the history holds the system message of request (\d+)(, hidden from the user transcript)?$/,
  async function (this: KitWorld, n: string, hidden?: string) {
    const sent = lastSystemMessage(this, Number(n));
    const held = (await this.driver.history(this.session().id)).filter((m) => m.role === 'system' && m.text === sent);
    expect(held, `the durable history holds the system message of request ${n}`).to.have.length.greaterThan(0);
    if (hidden) expect(held.map((m) => m.hidden)).to.deep.equal(held.map(() => true));
  },
);

Then(
  'the session reports the failure {string} mentioning {string}',
  async function (this: KitWorld, code: string, text: string) {
    const failures = await this.driver.failures(this.session().id);
    expect(failures.map((f) => f.code)).to.deep.equal([code]);
    expect(failures[0]!.message).to.include(text);
  },
);

function expectInOrder(text: string, parts: string[]): void {
  let from = 0;
  for (const part of parts) {
    const at = text.indexOf(part, from);
    expect(at, `"${part}" after position ${from} of:\n${text}`).to.be.at.least(0);
    from = at + part.length;
  }
}

/**
 * The local dates in `timeZone` a runtime may state: of the kit's virtual time, which a runtime
 * with a virtual clock follows, and of the host clock before and after the runtime answered,
 * which a black box follows (both, should local midnight pass in between).
 */
function localDates(world: KitWorld, timeZone: string): string[] {
  const iso = (instant: number) =>
    new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(instant);
  return [...new Set([Date.parse(world.now), ...world.hostReadings, Date.now()].map(iso))];
}

const namesDateIn = (world: KitWorld, text: string, timeZone: string) =>
  localDates(world, timeZone).some((date) => dateRenderings(date).some((rendering) => text.includes(rendering)));

Then(
  'the baseline of request {int} names the local date in {string}',
  function (this: KitWorld, n: number, timeZone: string) {
    expect(
      namesDateIn(this, baselineOf(this, n), timeZone),
      `the baseline names a date of ${localDates(this, timeZone).join(' or ')}`,
    ).to.equal(true);
  },
);

Then(
  'request {int} tells the model the local date in {string} after {string}',
  function (this: KitWorld, n: number, timeZone: string, input: string) {
    const told = toldAfter(this, n, input);
    expect(
      told.filter((message) => namesDateIn(this, message, timeZone)),
      `messages after "${input}" naming ${localDates(this, timeZone).join(' or ')}`,
    ).to.have.length(1);
  },
);

Then(
  'request {int} does not tell the model the local date in {string} after {string}',
  function (this: KitWorld, n: number, timeZone: string, input: string) {
    expect(toldAfter(this, n, input).filter((message) => namesDateIn(this, message, timeZone))).to.deep.equal([]);
  },
);

function inOrder(text: string, parts: string[]): boolean {
  let from = 0;
  for (const part of parts) {
    const at = text.indexOf(part, from);
    if (at < 0) return false;
    from = at + part.length;
  }
  return true;
}

/** The ways a runtime may write a calendar date (ISO, toDateString, long and short English). */
function dateRenderings(iso: string): string[] {
  const date = new Date(`${iso}T12:00:00Z`);
  const format = (options: Intl.DateTimeFormatOptions) =>
    new Intl.DateTimeFormat('en-US', { timeZone: 'UTC', ...options }).format(date);
  const weekday = format({ weekday: 'short' });
  const month = format({ month: 'short' });
  const day = format({ day: '2-digit' });
  return [
    iso,
    `${weekday} ${month} ${day} ${date.getUTCFullYear()}`,
    format({ dateStyle: 'long' }),
    format({ dateStyle: 'medium' }),
  ];
}

/**
 * The hash function is the runtime's (LEG-01): one that declares it (`texts["checkpoint.hash"]`, a
 * node:crypto name, hex digest) is held to exact values; otherwise a held value must be a string
 * that is not the text, stay the same for the same text and change with it.
 */
function holdsHashOf(world: KitWorld, text: string, held: unknown): boolean {
  const algorithm = world.driver.description.texts['checkpoint.hash'];
  if (algorithm !== undefined) return held === createHash(algorithm).update(text).digest('hex');
  return typeof held === 'string' && held.length > 0 && !held.includes(text);
}

const hashesHeld = new WeakMap<KitWorld, Map<string, { text: string; held: unknown }>>();

Then(
  'the baseline of request {int} names the working directory of {string}',
  function (this: KitWorld, n: number, name: string) {
    const { workspace } = this.session(name);
    const baseline = baselineOf(this, n);
    // The directory itself, not a parent of it: the next character ends the path.
    const named = [workspace, realpathSync(workspace)].some((path) =>
      new RegExp(`${escapeRegExp(path)}(?![\\w/.-])`).test(baseline),
    );
    expect(named, `the baseline names ${workspace}:\n${baseline}`).to.equal(true);
  },
);

Then('the baseline of request {int} names the date {string}', function (this: KitWorld, n: number, date: string) {
  const baseline = baselineOf(this, n);
  expect(
    dateRenderings(date).some((rendering) => baseline.includes(rendering)),
    `the baseline names ${date}:\n${baseline}`,
  ).to.equal(true);
});

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

Then(
  'the checkpoint holds the hash of {string} for {string}',
  async function (this: KitWorld, text: string, key: string) {
    const { snapshot } = await this.driver.call('epoch', { sessionId: this.session().id });
    const held = snapshot[key]?.value;
    expect(holdsHashOf(this, text, held), `the checkpoint holds ${JSON.stringify(held)} for ${key}`).to.equal(true);
    const seen = hashesHeld.get(this) ?? new Map<string, { text: string; held: unknown }>();
    hashesHeld.set(this, seen);
    const before = seen.get(key);
    if (before)
      expect(
        held === before.held,
        `the same hash for ${JSON.stringify(before.text)} and ${JSON.stringify(text)}`,
      ).to.equal(before.text === text);
    seen.set(key, { text, held });
  },
);

Then(
  'request {int} sends the kit components as separate system parts:',
  function (this: KitWorld, n: number, table: DataTable) {
    expect(request(this, n).baseline.filter((part) => part.startsWith('kit/'))).to.deep.equal(
      table.raw().map(([part]) => part),
    );
  },
);

Then('the baseline of request {int} begins with its built-in parts', function (this: KitWorld, n: number) {
  const kinds = request(this, n).baseline.map((part) => (part.startsWith('kit/') ? 'kit' : 'built-in'));
  expect(kinds.indexOf('built-in'), 'a built-in part first').to.equal(0);
  expect(kinds.lastIndexOf('built-in'), 'no built-in part after a kit part').to.be.below(kinds.indexOf('kit'));
});

Then("the history's system message names the sources:", async function (this: KitWorld, table: DataTable) {
  const keys = (await this.driver.history(this.session().id)).flatMap((m) =>
    m.role === 'system' ? [m.sourceKeys ?? []] : [],
  );
  expect(keys).to.deep.equal([table.raw().map(([key]) => key)]);
});

Then(
  'the last system message of request {int} is the declared text {string} for the file {string} in the workspace {string}',
  function (this: KitWorld, n: number, name: string, file: string, workspace: string) {
    const path = `${realpathSync(join(this.workspace(workspace), dirname(file)))}/${basename(file)}`;
    expect(lastSystemMessage(this, n)).to.equal(this.declaredText(name).replace('{path}', path));
  },
);

// ---- What the model is told, by meaning: runtimes word and place context changes their own way.

/**
 * The messages of request `n` from the promoted user input `input` on, that input's own text left
 * out: a change announced at that boundary comes after the input, as a message of its own or
 * appended to the input's turn.
 */
function toldAfter(world: KitWorld, n: number, input: string): string[] {
  const rows = conversation(world, n);
  const at = rows.findLastIndex((row) => row.role === 'user' && row.content.startsWith(input));
  if (at < 0) throw new Error(`request ${n} has no user message "${input}"`);
  return [rows[at]!.content.slice(input.length), ...rows.slice(at + 1).map((row) => row.content)];
}

Then(
  'request {int} tells the model {string} after {string}',
  function (this: KitWorld, n: number, text: string, input: string) {
    const told = toldAfter(this, n, input);
    expect(
      told.filter((message) => message.includes(text)),
      `messages after "${input}" telling "${text}":\n${told.join('\n---\n')}`,
    ).to.have.length(1);
  },
);

Then(
  'request {int} tells the model {string} then {string} in one message after {string}',
  function (this: KitWorld, n: number, a: string, b: string, input: string) {
    const told = toldAfter(this, n, input);
    const carrying = told.filter((message) => message.includes(a) || message.includes(b));
    expect(carrying, `messages after "${input}" telling "${a}" or "${b}"`).to.have.length(1);
    expectInOrder(carrying[0]!, [a, b]);
  },
);

Then(
  'request {int} tells the model the declared text {string} after {string}',
  function (this: KitWorld, n: number, name: string, input: string) {
    const text = this.declaredText(name);
    expect(
      toldAfter(this, n, input).filter((message) => message.includes(text)),
      `messages after "${input}" telling the runtime's ${name} text`,
    ).to.have.length(1);
  },
);

Then('request {int} tells the model nothing after {string}', function (this: KitWorld, n: number, input: string) {
  expect(toldAfter(this, n, input).map((message) => message.trim())).to.deep.equal(['']);
});

Then(
  'request {int} does not tell the model {string} after {string}',
  function (this: KitWorld, n: number, text: string, input: string) {
    expect(toldAfter(this, n, input).filter((message) => message.includes(text))).to.deep.equal([]);
  },
);

Then('request {int} tells the model {string} once', function (this: KitWorld, n: number, text: string) {
  const sent = [...request(this, n).baseline, ...request(this, n).messages.map((message) => message.text)];
  expect(sent.join('\n').split(text).length - 1, `times request ${n} carries "${text}"`).to.equal(1);
});
