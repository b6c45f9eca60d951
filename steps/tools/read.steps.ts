import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { Given, Then, type DataTable } from '@cucumber/cucumber';
import { expect } from 'chai';
import { producedText } from '../../harness/means/shell-commands.js';
import { structured, toolCall } from '../support/tool-calls.js';
import type { KitWorld } from '../support/world.js';
import { orEmpty } from '../../harness/report/failure-words.js';
import { namesNumber, numbersPast, saysWhereToGoOn, textListing, textPage } from '../../harness/means/read-text.js';

/** `line 1` to `line <count>`, one a line. */
const numbered = (count: number) => producedText({ kind: 'numbered', count, suffix: '' });

interface FilePage {
  encoding: string;
  content: string;
  offset?: number;
  next?: number | null;
}

Given(
  'the workspace {string} has a directory {string}',
  function (this: KitWorld, workspace: string, directory: string) {
    mkdirSync(join(this.workspace(workspace), directory), { recursive: true });
  },
);

Then('call {string} read {string}', async function (this: KitWorld, id: string, text: string) {
  const call = await toolCall(this, id);
  expect(call.status).to.equal('success');
  expect(call.output).to.include(text);
});

/**
 * The read returned the file: the kit's read tool every numbered line in its structured page; a
 * runtime's own read tool, whose text output its limit may bound as any other, the file from its
 * first lines on, each line perhaps after a line number of the tool's own.
 */
Then('call {string} read the {int} numbered lines', async function (this: KitWorld, id: string, count: number) {
  const call = await toolCall(this, id);
  const page = call.structured as FilePage | undefined;
  if (page?.content === undefined) {
    expect(call.status, `status of "${id}"`).to.equal('success');
    const output = call.output ?? '';
    const first = numbered(Math.min(count, 3)).split('\n');
    expect(
      linesInOrder(output, first),
      `call "${id}" read the file of ${count} numbered lines from its first lines on (${first.join(', ')})\nit read:\n${orEmpty(output.slice(0, 600))}`,
    ).to.equal(true);
    return;
  }
  // Through a shell the managed file holds the command's output as the runtime wrapped it.
  const content = page.content.replace(/\n$/, '');
  expect(
    this.means.shows(content, numbered(count)),
    `call "${id}" read the ${count} numbered lines\nit read:\n${orEmpty(content)}`,
  ).to.equal(true);
});

/** Whether each of `lines` ends a line of `text`, in their order. */
function linesInOrder(text: string, lines: readonly string[]): boolean {
  const shown = text.split('\n').map((line) => line.trimEnd());
  let at = 0;
  for (const line of lines) {
    while (at < shown.length && !shown[at]!.endsWith(line)) at += 1;
    if (at === shown.length) return false;
    at += 1;
  }
  return true;
}

Then(
  'call {string} was refused without revealing {string}',
  async function (this: KitWorld, id: string, secret: string) {
    const call = await toolCall(this, id);
    expect(call.status, `status of "${id}"`).to.equal('error');
    expect(call.output).to.not.include(secret);
  },
);

/**
 * The checks of a page below judge the kit's structured result exactly; a runtime's own read tool
 * that answers as text (the seeds fix what a page holds and that it says where to go on, not its
 * shape) is judged on the facts its text states: `textAnswer` gives that text, or undefined for a
 * structured result.
 */
async function textAnswer(world: KitWorld, id: string): Promise<string | undefined> {
  const call = await toolCall(world, id);
  if (call.structured !== undefined) return undefined;
  expect(call.status, `status of "${id}", which answered: ${orEmpty(call.output?.slice(0, 300))}`).to.equal('success');
  return call.output ?? '';
}

Then(
  'call {string} listed, with next offset {next-offset}:',
  async function (this: KitWorld, id: string, next: number | null, table: DataTable) {
    const text = await textAnswer(this, id);
    if (text !== undefined) {
      const listing = textListing(text);
      const names = table.hashes().map(({ name }) => name);
      expect(
        listing.names,
        `the entries call "${id}" listed, one a line\nit answered:\n${orEmpty(text)}`,
      ).to.deep.equal(names);
      if (next !== null) {
        expect(
          namesNumber(listing.notes, next),
          `call "${id}" names the offset of the next page, ${next}\nit answered:\n${orEmpty(text)}`,
        ).to.equal(true);
      } else if (numbersPast(listing.notes, listing.names.length).length > 0) {
        // A number past the listing beside it may be a next offset or a total: the text does not tell.
        this.notJudged(
          `call "${id}" listed as text beside ${numbersPast(listing.notes, listing.names.length).join(', ')}: whether it names a next page is not told`,
        );
      }
      return;
    }
    const page = await structured<{ entries: { name: string; type: string }[]; next: number | null }>(this, id);
    expect(page.entries.map(({ name, type }) => ({ name, type }))).to.deep.equal(table.hashes());
    expect(page.next).to.equal(next);
  },
);

Then(
  'call {string} returned lines {int} to {int} with next offset {int}',
  async function (this: KitWorld, id: string, from: number, to: number, next: number) {
    const text = await textAnswer(this, id);
    if (text !== undefined) {
      const page = textPage(text);
      expect(
        page.lines,
        `the numbered lines call "${id}" returned\nit answered:\n${orEmpty(text.slice(0, 600))}`,
      ).to.deep.equal(Array.from({ length: to - from + 1 }, (_, i) => from + i));
      expect(
        saysWhereToGoOn(page.notes, from, to),
        `call "${id}" says where to go on: line ${next}, or lines ${from} to ${to} of more\nbeside its lines it said: ${orEmpty(page.notes.trim())}`,
      ).to.equal(true);
      return;
    }
    const page = await structured<FilePage>(this, id);
    const expected = Array.from({ length: to - from + 1 }, (_, i) => `line ${from + i}`).join('\n');
    expect([page.encoding, page.content.replace(/\n$/, ''), page.next]).to.deep.equal(['utf-8', expected, next]);
  },
);

Then(
  'call {string} returned a first page of consecutive lines and the offset after it',
  async function (this: KitWorld, id: string) {
    const text = await textAnswer(this, id);
    if (text !== undefined) {
      const page = textPage(text);
      const last = page.lines.length;
      expect(
        page.lines,
        `call "${id}" returned lines 1 on, consecutive\nit answered:\n${orEmpty(text.slice(0, 600))}`,
      ).to.deep.equal(page.lines.map((_, i) => i + 1));
      expect(last, `lines call "${id}" returned`).to.be.greaterThan(0);
      expect(
        saysWhereToGoOn(page.notes, 1, last),
        `call "${id}" returned lines 1 to ${last} and says where to go on: line ${last + 1}, or lines 1 to ${last} of more\nbeside its lines it said: ${orEmpty(page.notes.trim().slice(0, 600))}`,
      ).to.equal(true);
      return;
    }
    const page = await structured<FilePage>(this, id);
    const lines = page.content.replace(/\n$/, '').split('\n');
    expect(lines).to.deep.equal(lines.map((_, i) => `line ${i + 1}`));
    expect(page.next).to.equal(lines.length + 1);
  },
);

Then('call {string} returned the bytes {string} as base64', async function (this: KitWorld, id: string, hex: string) {
  const base64 = Buffer.from(hex.replace(/\s/g, ''), 'hex').toString('base64');
  const text = await textAnswer(this, id);
  if (text !== undefined) {
    expect(text, `call "${id}" returned the bytes ${hex} as base64 (${base64})`).to.include(base64);
    return;
  }
  const page = await structured<FilePage>(this, id);
  expect([page.encoding, page.content]).to.deep.equal(['base64', base64]);
});
