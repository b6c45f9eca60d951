import { Then } from '@cucumber/cucumber';
import { expect } from 'chai';
import { conversation } from './provider.steps.js';
import type { KitWorld } from './support/world.js';
import type { HistoryMessage } from '../harness/driver/protocol.js';

/** User, system and compaction messages share one shape in the protocol. */
type UserMessage = Exclude<HistoryMessage, { role: 'assistant' | 'tool' }>;

/**
 * Continuation texts: a step names either the literal text or, with `the declared text`, the
 * name of a text the runtime declared in its handshake (the wording of a synthetic message is the
 * runtime's choice).
 */
function expectEndsWith(world: KitWorld, n: number, text: string): void {
  expect(conversation(world, n).at(-1)).to.deep.equal({ role: 'user', content: text });
}

async function expectContinuation(world: KitWorld, text: string): Promise<void> {
  const newest = (await world.driver.history(world.session().id)).findLast((m): m is UserMessage => m.role === 'user');
  expect(newest && { text: newest.text, hidden: newest.hidden, continuation: newest.continuation ?? false }).to.deep.equal({
    text,
    hidden: true,
    continuation: true,
  });
}

Then('request {int} ends with the user message {string}', function (this: KitWorld, n: number, text: string) {
  expectEndsWith(this, n, text);
});

Then('request {int} ends with the user message of the declared text {string}', function (this: KitWorld, n: number, name: string) {
  expectEndsWith(this, n, this.declaredText(name));
});

Then('the newest user message in the history is a hidden continuation reading {string}', function (this: KitWorld, text: string) {
  return expectContinuation(this, text);
});

Then(
  'the newest user message in the history is a hidden continuation of the declared text {string}',
  function (this: KitWorld, name: string) {
    return expectContinuation(this, this.declaredText(name));
  },
);
