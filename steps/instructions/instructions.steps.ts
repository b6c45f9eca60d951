import { realpathSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { Given, Then, type DataTable } from '@cucumber/cucumber';
import { expect } from 'chai';
import { NothingToJudge } from '../../harness/report/outcome.js';
import type { KitWorld } from '../support/world.js';
import { plant } from '../support/workspaces.js';
import {
  conversation,
  lastSystemMessage,
  type Placement,
  type RequestText,
  request,
  requestLabel,
  sentForItself,
  textOf,
  somethingToldAfter,
  toldAfter,
} from '../support/requests.js';
import { inOrder } from '../support/text.js';
import { orEmpty } from '../../harness/report/failure-words.js';

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
    `the instructions ${JSON.stringify([...global, ...project])} in an order the seeds allow\nin:\n${orEmpty(text)}`,
  ).to.equal(true);
  if (global.length > 0 && project.length > 0) world.tookReading('instructions.order', allowed!.reading);
}

Then(
  '{request-text} contains the instructions in an order the seeds allow:',
  function (this: KitWorld, part: RequestText, table: DataTable) {
    expectInstructions(this, textOf(this, part), table);
  },
);

/** The declared text opens the one message that tells `text` at the boundary of `input`, wherever the runtime put it. */
Then(
  '{request} tells {string} {placement} {string} in a message that begins with the declared text {string}',
  function (this: KitWorld, n: number, text: string, placement: Placement, input: string, name: string) {
    const telling = toldAfter(this, n, input, placement).filter((message) => message.includes(text));
    expect(telling, `messages ${placement} "${input}" telling "${text}"`).to.have.length(1);
    expect(
      telling[0]!.startsWith(this.declaredText(name)),
      `whether the message telling "${text}" starts with the runtime's ${name} text\nthe message:\n${telling[0]}`,
    ).to.equal(true);
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

/** The one message `placement` the input `input` that tells `text`; a baseline that alone holds it is named in the failure. */
function expectToldIn(world: KitWorld, n: number, text: string, placement: Placement, input: string): void {
  const inBaselineOnly = toldInBaselineOnly(world, n, text)
    ? ` (its baseline holds "${text}": the runtime tells the change only in a baseline it builds anew)`
    : '';
  const told = toldAfter(world, n, input, placement);
  if (told.every((message) => message.trim() === ''))
    throw new Error(`${requestLabel(n)} tells the model nothing ${placement} "${input}"${inBaselineOnly}`);
  expect(
    told.filter((message) => message.includes(text)),
    `messages ${placement} "${input}" telling "${text}"${inBaselineOnly}\nthe messages ${placement} it:\n${orEmpty(told.join('\n---\n'))}`,
  ).to.have.length(1);
}

/** Whether request `n` holds `text` in its baseline and in none of its messages. */
function toldInBaselineOnly(world: KitWorld, n: number, text: string): boolean {
  return (
    textOf(world, { part: 'the baseline', n }).includes(text) &&
    !conversation(world, n).some((row) => row.content.includes(text))
  );
}

Then(
  '{request} tells the model {text} {placement} {string}',
  function (this: KitWorld, n: number, text: string, placement: Placement, input: string) {
    expectToldIn(this, n, text, placement, input);
  },
);

/**
 * A check of where a change is told, in a message, or of what that message holds: a runtime that
 * tells a change only in a baseline it builds anew for each request sends no such message, so the
 * check has nothing to read (whether the change is told at all, and the baseline kept, are other
 * checks').
 */
Then(
  '{request} tells the model {string} {placement} {string}, unless it tells changes only in its baseline',
  function (this: KitWorld, n: number, text: string, placement: Placement, input: string) {
    if (toldInBaselineOnly(this, n, text))
      return this.notJudged(
        `${requestLabel(n)} holds "${text}" in its baseline only: the runtime tells the change in no message, so nothing shows where it would place one`,
      );
    expectToldIn(this, n, text, placement, input);
  },
);

/**
 * Whether the runtime observed a changed file at the boundary before request `n`: its new text
 * reaches the model there, wherever the runtime puts it (a message, a user turn, a baseline of its
 * own). A runtime that never tells it never observed the files (INS-01), whatever the scenario is about.
 */
Then('{request} tells the model {string}', function (this: KitWorld, n: number, text: string) {
  expect(everythingSent(this, n).includes(text), `whether ${requestLabel(n)} carries "${text}" anywhere`).to.equal(
    true,
  );
});

/** The name of the instruction files the scenarios plant, as `000` names them. */
const INSTRUCTION_FILE = 'AGENTS.md';

/**
 * A check of what one boundary tells, with its control: a runtime that tells nothing there even
 * though a file changed never tells a change at all. `above`: the checks before it showed nothing,
 * and the scenario goes on. `here`: it is the premise of a scenario about the message a change is
 * told in, and a runtime that tells the change only in a baseline of its own, or not at all, sends
 * no such message: nothing here is judged. A runtime that told something of the instruction files
 * there (their text, or a file by its name) told the change: its message must tell this text.
 * What else it tells there (a date, say) is other rules'.
 */
function toldOrNothing(
  world: KitWorld,
  n: number,
  text: string,
  placement: Placement,
  input: string,
  scope: 'above' | 'here',
): void {
  const told = toldAfter(world, n, input, placement);
  if (!told.some((message) => message.includes(text) || message.includes(INSTRUCTION_FILE))) {
    // A runtime that tells a change only in a baseline of its own tells nothing in a message ever:
    // the checks above, that a message told nothing, could not have failed on it.
    const why = textOf(world, { part: 'the baseline', n }).includes(text)
      ? `${requestLabel(n)} holds "${text}" in its baseline only: the runtime told the change in no message`
      : `${requestLabel(n)} tells nothing of the instruction files ${placement} "${input}" though a file changed: the runtime tells no change in a message`;
    if (scope === 'here') throw new NothingToJudge(why);
    world.notJudged(why);
    return;
  }
  expect(
    told.filter((message) => message.includes(text)),
    `messages ${placement} "${input}" telling "${text}"\nthe messages ${placement} it:\n${orEmpty(told.join('\n---\n'))}`,
  ).to.have.length(1);
}

Then(
  '{request} tells the model {string} {placement} {string}, or nothing above was judged',
  function (this: KitWorld, n: number, text: string, placement: Placement, input: string) {
    toldOrNothing(this, n, text, placement, input, 'above');
  },
);

/**
 * The runtime read the change by request `n`, whichever way it tells it (a message, or a baseline
 * of its own): checks above that it did nothing in the meantime (woke no idle session) were about a
 * change it can see. One that never read it could not have done anything with it.
 */
Then(
  '{request} carries {string} in a message or its baseline, or nothing above was judged',
  function (this: KitWorld, n: number, text: string) {
    const carried =
      textOf(this, { part: 'the baseline', n }).includes(text) ||
      conversation(this, n).some((row) => row.content.includes(text));
    if (!carried) this.notJudged(`${requestLabel(n)} does not carry "${text}": the runtime never read the change`);
  },
);

Then(
  '{request} tells the model {string} {placement} {string}, or nothing here is judged',
  function (this: KitWorld, n: number, text: string, placement: Placement, input: string) {
    toldOrNothing(this, n, text, placement, input, 'here');
  },
);

Then(
  '{request} tells the model the instructions in an order the seeds allow, in one message {placement} {string}:',
  function (this: KitWorld, n: number, placement: Placement, input: string, table: DataTable) {
    const lines = table.raw().map(([, line]) => line!);
    const told = somethingToldAfter(this, n, input, placement);
    const carrying = told.filter((message) => lines.some((line) => message.includes(line)));
    expect(carrying, `messages ${placement} "${input}" telling ${JSON.stringify(lines)}`).to.have.length(1);
    expectInstructions(this, carrying[0]!, table);
  },
);

Then(
  '{request} tells the model nothing {placement} {string}',
  function (this: KitWorld, n: number, placement: Placement, input: string) {
    expect(toldAfter(this, n, input, placement).map((message) => message.trim())).to.deep.equal(['']);
  },
);

Then(
  '{request} does not tell the model {string} {placement} {string}',
  function (this: KitWorld, n: number, text: string, placement: Placement, input: string) {
    const told = toldAfter(this, n, input, placement);
    // Run on past a check that failed or saw nothing told, this check would hold for the same reason.
    if ((this.failedChecks.length > 0 || this.someCheckNotJudged) && told.every((message) => message.trim() === ''))
      return this.notJudged(
        `${requestLabel(n)} tells nothing ${placement} "${input}": that it leaves "${text}" out says nothing`,
      );
    expect(told.filter((message) => message.includes(text))).to.deep.equal([]);
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
  plant(join(this.workspace('home'), INSTRUCTION_FILE), text);
});

/**
 * An instruction file that cannot be read (a directory stands in its place) may be read as
 * unavailable or as removed: the seeds leave that open (`instructions.unreadable`; `000` makes
 * Unavailable Context "an expected temporary inability to observe" a value, and says nothing of a
 * directory where a file should be). These steps tell the runtime's reading from what it sent; a
 * scenario about an unavailable file has nothing to judge in a runtime that read it as removed.
 * A runtime that declares its reading (`texts["instructions.unreadable"]`) is held to it.
 */
function tookUnreadable(world: KitWorld, reading: 'unavailable' | 'removed'): void {
  const declared = world.driver.description.texts['instructions.unreadable'];
  if (declared !== undefined && declared !== reading)
    expect.fail(
      `the runtime declares that it reads an instruction file that cannot be read as ${declared}, and read it as ${reading}`,
    );
  world.tookReading('instructions.unreadable', reading);
}

function readAsRemoved(world: KitWorld, seen: string): 'skipped' {
  tookUnreadable(world, 'removed');
  return world.notApplicable(
    `the runtime read the instruction file that cannot be read as removed (${seen}), a reading the seeds leave open (instructions.unreadable): the scenario is about an unavailable file`,
  );
}

Then(
  '{request} tells the model nothing {placement} {string}, or the runtime read the file that cannot be read as removed and no longer tells {string} there',
  function (this: KitWorld, n: number, placement: Placement, input: string, text: string) {
    const told = toldAfter(this, n, input, placement);
    // A runtime that builds its baseline again from the files tells a removal there, in no message.
    const baseline = (m: number) => textOf(this, { part: 'the baseline', n: m });
    if (baseline(n - 1).includes(text) && !baseline(n).includes(text))
      return readAsRemoved(this, `${requestLabel(n)}'s baseline no longer holds "${text}"`);
    if (told.every((message) => message.trim() === '')) {
      tookUnreadable(this, 'unavailable');
      return undefined;
    }
    expect(
      told.filter((message) => message.includes(text)),
      `messages after "${input}" still telling "${text}", though the runtime told a change there\nthe messages after it:\n${orEmpty(told.join('\n---\n'))}`,
    ).to.deep.equal([]);
    return readAsRemoved(this, `${requestLabel(n)} tells a change after "${input}"`);
  },
);

Then(
  'the provider received no request, or the runtime read the file that cannot be read as removed and sent {string}',
  function (this: KitWorld, input: string) {
    const { length } = this.provider.requests;
    if (length === 0) {
      tookUnreadable(this, 'unavailable');
      return undefined;
    }
    expect(length, 'provider requests').to.equal(1);
    expect(
      conversation(this, 1).some((row) => row.role === 'user' && row.content.startsWith(input)),
      `whether request 1 carries "${input}"`,
    ).to.equal(true);
    return readAsRemoved(this, `request 1 went out with "${input}"`);
  },
);

/**
 * EPO-09 through an instruction file: `000` has the replacement of the baseline after a compaction
 * report blocked while a previously admitted source is unavailable, and does not say whether a
 * request goes out meanwhile. A request sent while the file cannot be read keeps the baseline in
 * force before the compaction (request `before`'s), or, where the runtime read the file as removed,
 * carries a fresh baseline without its text.
 */
Then(
  'every request after request {int} keeps the baseline of request {int}, or the runtime read the file that cannot be read as removed and its new baseline lacks {string}',
  function (this: KitWorld, after: number, before: number, text: string) {
    // The baseline wherever the runtime sends it: the system field and the context leading the conversation.
    const baseline = (n: number) => textOf(this, { part: 'the baseline', n });
    const kept = baseline(before);
    // A request the runtime sent for itself (its compaction's) carries the compaction's instructions, not the session's baseline.
    const replaced = this.provider.requests
      .map((_, i) => i + 1)
      .filter((n) => n > after && !sentForItself(this, n) && baseline(n) !== kept);
    if (replaced.length === 0) {
      tookUnreadable(this, 'unavailable');
      return undefined;
    }
    const holding = replaced.filter((n) => baseline(n).includes(text));
    if (holding.length === replaced.length)
      throw new NothingToJudge(
        `request ${replaced[0]} carries a new baseline that still holds "${text}": whether the runtime saw the file unreadable and held its value, or never read it again, the requests cannot tell`,
      );
    expect(
      holding,
      `the requests whose new baseline still carries "${text}" while the file cannot be read`,
    ).to.deep.equal([]);
    return readAsRemoved(this, `request ${replaced[0]} carries a new baseline`);
  },
);
