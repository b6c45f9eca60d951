import { When, Then } from '@cucumber/cucumber';
import { expect } from 'chai';
import type { KitWorld } from '../support/world.js';

When(
  'a subscriber replays the events of {string} after sequence {int} and keeps tailing',
  async function (this: KitWorld, name: string, after: number) {
    this.subscription = await this.driver.subscribe(this.session(name).id, after);
  },
);

Then(
  'the subscriber received every durable event after sequence {int} exactly once, in order',
  async function (this: KitWorld, after: number) {
    const received = (await this.driver.take(this.subscription!)).map((event) => event.seq);
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
