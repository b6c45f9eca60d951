import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { When, Then, type DataTable } from '@cucumber/cucumber';
import { expect } from 'chai';
import type { HistoryMessage } from '../harness/protocol/protocol.js';
import { historyRow, type Row } from './support/rows.js';
import type { KitWorld } from './support/world.js';

const KEYS: Record<string, (row: { messageId: string; text: string; delivery: string; state: string }) => string> = {
  id: (row) => row.messageId,
  text: (row) => row.text,
  delivery: (row) => row.delivery,
  state: (row) => row.state,
};

/**
 * A delivery of `default` is the delivery of a prompt that named none: the seeds leave it open, so
 * it is the one the runtime declares (`texts["prompt.default-delivery"]`), or either mode.
 */
Then('the inbox is:', async function (this: KitWorld, table: DataTable) {
  const declared = this.driver.description.texts['prompt.default-delivery'];
  const defaults = declared === undefined ? ['steer', 'queue'] : [declared];
  const expected = table.hashes();
  const columns = Object.keys(expected[0] ?? {});
  const rows = await this.driver.inbox(this.session().id);
  const actual = rows.map((row) => Object.fromEntries(columns.map((c) => [c, KEYS[c]!(row)])));
  const resolved = expected.map((row, i) =>
    row.delivery === 'default' && defaults.includes(actual[i]?.delivery ?? '')
      ? { ...row, delivery: actual[i]!.delivery! }
      : row,
  );
  expect(actual).to.deep.equal(resolved);
});

Then(
  'the inbox of session {string} holds {int} prompt(s)',
  async function (this: KitWorld, name: string, count: number) {
    expect(await this.driver.inbox(this.session(name).id)).to.have.length(count);
  },
);

async function historyRows(world: KitWorld): Promise<Row[]> {
  return (await world.driver.history(world.session().id)).map(historyRow);
}

Then('the history is:', async function (this: KitWorld, table: DataTable) {
  expect(await historyRows(this)).to.deep.equal(table.hashes());
});

// Pages back from the newest message, each page ending before the oldest of the last, until one
// comes back empty; a runtime that ignores the cursor is stopped one page after the table's end.
Then(
  'the history read {int} messages a page, newest first, is:',
  async function (this: KitWorld, size: number, table: DataTable) {
    const expected = table.hashes();
    const read: (Row & { page: string })[] = [];
    let before: string | undefined;
    for (let page = 1; page <= expected.length + 1; page++) {
      const { messages } = await this.driver.call('history.page', {
        sessionId: this.session().id,
        limit: size,
        ...(before === undefined ? {} : { before }),
      });
      if (messages.length === 0) break;
      expect(messages.length, `messages on page ${page}`).to.be.at.most(size);
      read.push(...messages.map((message) => ({ page: String(page), ...historyRow(message) })));
      before = messages[0]!.id;
    }
    expect(read).to.deep.equal(expected);
  },
);

Then('the history has no user message {string}', async function (this: KitWorld, text: string) {
  expect(await historyRows(this)).to.not.deep.include({ role: 'user', content: text });
});

Then('the history has {int} user message(s) {string}', async function (this: KitWorld, count: number, text: string) {
  const found = (await historyRows(this)).filter((row) => row.role === 'user' && row.content === text);
  expect(found.length, `user messages "${text}" in history`).to.equal(count);
});

async function toolMessages(world: KitWorld, name?: string) {
  return (await world.driver.history(world.session().id)).filter(
    (message): message is Extract<HistoryMessage, { role: 'tool' }> =>
      message.role === 'tool' && (name === undefined || world.means.isCallOf(message, name)),
  );
}

Then('the history has the tool call {string} running', async function (this: KitWorld, name: string) {
  expect((await toolMessages(this, name)).map((m) => m.status)).to.deep.equal(['running']);
});

Then(
  'the history has the tool call {string} settled as {word}',
  async function (this: KitWorld, name: string, status: string) {
    expect((await toolMessages(this, name)).map((m) => m.status)).to.deep.equal([status]);
  },
);

Then('the history has {int} settled tool calls', async function (this: KitWorld, count: number) {
  const settled = (await toolMessages(this)).filter((m) => m.status === 'success');
  expect(settled).to.have.length(count);
});

Then('the session reports no failure', async function (this: KitWorld) {
  expect(await this.driver.failures(this.session().id)).to.deep.equal([]);
});

Then('the session reports the failure {string}', async function (this: KitWorld, code: string) {
  expect((await this.driver.failures(this.session().id)).map((f) => f.code)).to.deep.equal([code]);
});

When(
  'a subscriber replays the events of {string} after sequence {int} and keeps tailing',
  async function (this: KitWorld, name: string, after: number) {
    ({ subscription: this.subscription } = await this.driver.call('events.subscribe', {
      sessionId: this.session(name).id,
      after,
    }));
  },
);

Then(
  'the subscriber received every durable event after sequence {int} exactly once, in order',
  async function (this: KitWorld, after: number) {
    const { events } = await this.driver.call('events.take', { subscription: this.subscription! });
    const received = events.map((event) => event.seq);
    const durable = (await this.driver.events(this.session().id)).map((event) => event.seq);
    const expected = durable.filter((seq) => seq > after);
    expect(expected.length, 'durable events after the cursor').to.be.greaterThan(0);
    expect(received).to.deep.equal(expected);
    expect(durable, 'durable sequence numbers are contiguous').to.deep.equal(durable.map((_, i) => i + 1));
  },
);

Then(
  'sessions {string} and {string} have the same number of durable events',
  async function (this: KitWorld, a: string, b: string) {
    const count = async (name: string) => (await this.driver.events(this.session(name).id)).length;
    expect(await count(b)).to.equal(await count(a));
  },
);

function lines(path: string): string[] {
  return existsSync(path) ? readFileSync(path, 'utf8').split('\n').filter(Boolean) : [];
}

Then(
  '{string} in the workspace of {string} has {int} line(s)',
  function (this: KitWorld, file: string, name: string, count: number) {
    expect(lines(join(this.session(name).workspace, file))).to.have.length(count);
  },
);

Then(
  '{string} in the workspace {string} has {int} line(s)',
  function (this: KitWorld, file: string, workspace: string, count: number) {
    expect(lines(join(this.workspace(workspace), file))).to.have.length(count);
  },
);

Then('the original workspace of {string} has no {string}', function (this: KitWorld, name: string, file: string) {
  expect(existsSync(join(this.session(name).workspace, file)), `${file} in the original workspace`).to.equal(false);
});
