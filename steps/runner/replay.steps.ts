import { When, Then, type DataTable } from '@cucumber/cucumber';
import { expect } from 'chai';
import { historyRow, type Row } from '../support/rows.js';
import type { KitWorld } from '../support/world.js';

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
