import { isDeepStrictEqual } from 'node:util';
import { Then, type DataTable } from '@cucumber/cucumber';
import { expect } from 'chai';
import type { KitWorld } from '../support/world.js';
import { baselineOf, contextBaselineOf } from '../support/requests.js';
import { expectInOrder } from '../support/text.js';
import { holdsHashOf } from '../support/checkpoint-hash.js';

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
    expect(contextBaselineOf(this, b)).to.equal(contextBaselineOf(this, a));
  },
);

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
  expect((await this.driver.call('epoch', { sessionId: this.session().id })).baseline).to.equal(
    contextBaselineOf(this, n),
  );
});
