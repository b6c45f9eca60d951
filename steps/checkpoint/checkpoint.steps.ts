import { Then, type DataTable } from '@cucumber/cucumber';
import { expect } from 'chai';
import type { KitWorld } from '../support/world.js';
import { request } from '../support/requests.js';
import { holdsHashOf } from '../support/checkpoint-hash.js';

Then(
  'the checkpoint holds the hash of {string} for {string}',
  async function (this: KitWorld, text: string, key: string) {
    const { snapshot } = await this.driver.call('epoch', { sessionId: this.session().id });
    const held = snapshot[key]?.value;
    expect(holdsHashOf(this, text, held), `the checkpoint holds ${JSON.stringify(held)} for ${key}`).to.equal(true);
    const before = this.hashesHeld.get(key);
    if (before)
      expect(
        held === before.held,
        `the same hash for ${JSON.stringify(before.text)} and ${JSON.stringify(text)}`,
      ).to.equal(before.text === text);
    this.hashesHeld.set(key, { text, held });
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
