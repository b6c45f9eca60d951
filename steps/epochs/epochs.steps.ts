import { isDeepStrictEqual } from 'node:util';
import { Then } from '@cucumber/cucumber';
import { expect } from 'chai';
import type { KitWorld } from '../support/world.js';
import { baselineOf, contextBaselineOf } from '../support/requests.js';
import { holdsHashOf } from '../support/checkpoint-hash.js';

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
  'the epoch holds the removal text {text} for {snapshot-source}',
  async function (this: KitWorld, text: string, key: string) {
    const { snapshot } = await this.driver.call('epoch', { sessionId: this.session().id });
    expect(snapshot[key]?.removal, `the removal text of ${key}`).to.equal(text);
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

/**
 * CTX-12 through a source the runtime owns: the kit does not know its codec, but a snapshot that
 * kept the rendered text would hold a string the baseline carries, longer than the file's text.
 */
Then(
  'the epoch holds {string} in one source, as a value and not as the text of the baseline of request {int}',
  async function (this: KitWorld, text: string, n: number) {
    const { snapshot } = await this.driver.call('epoch', { sessionId: this.session().id });
    const holding = Object.entries(snapshot).filter(([, entry]) => JSON.stringify(entry.value).includes(text));
    expect(
      holding.map(([key]) => key),
      `the snapshot sources holding "${text}"`,
    ).to.have.length(1);
    const [key, entry] = holding[0]!;
    const rendered =
      typeof entry.value === 'string' && entry.value !== text && baselineOf(this, n).includes(entry.value);
    expect(rendered, `the snapshot of ${key} holds the rendered text ${JSON.stringify(entry.value)}`).to.equal(false);
    this.snapshotSource = key;
  },
);

/**
 * EPO-09: `000` has the replacement of the baseline after a compaction report blocked while a
 * previously admitted source is unavailable; it does not say whether a request goes out meanwhile.
 * A request sent before the source loads keeps the baseline in force before the compaction.
 */
Then(
  'every request after request {int} keeps the baseline of request {int}',
  function (this: KitWorld, after: number, before: number) {
    const kept = contextBaselineOf(this, before);
    for (let n = after + 1; n <= this.provider.requests.length; n++)
      expect(contextBaselineOf(this, n), `the baseline of request ${n}, while the replacement is blocked`).to.equal(
        kept,
      );
  },
);

/** A drain that sent nothing while the replacement was blocked stopped with work left, and says why. */
Then(
  'if no request went out after request {int}, the session reports the failure {failure-code} mentioning {string}',
  async function (this: KitWorld, after: number, code: string, text: string) {
    if (this.provider.requests.length > after) return;
    const failures = await this.driver.failures(this.session().id);
    expect(failures.map((f) => f.code)).to.deep.equal([code]);
    expect(failures[0]!.message).to.include(text);
  },
);
