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

/** The parts of two requests' baselines, one for one: what the epoch kept of each component. */
Then(
  'request {int} sends the system parts of request {int}, each as it was',
  function (this: KitWorld, later: number, earlier: number) {
    expect(request(this, later).baseline, `the system parts of request ${later}`).to.deep.equal(
      request(this, earlier).baseline,
    );
  },
);

/** A component whose text holds a blank line travels whole, as one part. */
Then(
  'request {int} sends {string} and {string} in one system part',
  function (this: KitWorld, n: number, first: string, second: string) {
    const parts = request(this, n).baseline;
    expect(
      parts.filter((part) => part.includes(first) && part.includes(second)),
      `the system parts holding both "${first}" and "${second}", of: ${JSON.stringify(parts)}`,
    ).to.have.length(1);
  },
);

Then('the baseline of request {int} begins with its built-in parts', function (this: KitWorld, n: number) {
  const kinds = request(this, n).baseline.map((part) => (part.startsWith('kit/') ? 'kit' : 'built-in'));
  expect(kinds.indexOf('built-in'), 'a built-in part first').to.equal(0);
  expect(kinds.lastIndexOf('built-in'), 'no built-in part after a kit part').to.be.below(kinds.indexOf('kit'));
});

/**
 * The built-in parts of a later baseline, one for one with an earlier one's in the same order, the
 * part that held `before` now holding `after` in its place (LEG-04): a new epoch renders the
 * built-in components in their declaration order, whichever of them changed since.
 */
Then(
  'request {int} sends the built-in parts of request {int} in their order, {string} now reading {string}',
  function (this: KitWorld, later: number, earlier: number, before: string, after: string) {
    const builtIn = (n: number) => request(this, n).baseline.filter((part) => !part.startsWith('kit/'));
    const parts = builtIn(earlier);
    expect(
      parts.filter((part) => part.includes(before)),
      `the built-in parts of request ${earlier} holding "${before}", of: ${JSON.stringify(parts)}`,
    ).to.have.length(1);
    expect(builtIn(later), `the built-in parts of request ${later}, in order`).to.deep.equal(
      parts.map((part) => part.replaceAll(before, after)),
    );
  },
);

Then("the history's system message names the sources:", async function (this: KitWorld, table: DataTable) {
  const keys = (await this.driver.history(this.session().id)).flatMap((m) =>
    m.role === 'system' ? [m.sourceKeys ?? []] : [],
  );
  expect(keys).to.deep.equal([table.raw().map(([key]) => key)]);
});
