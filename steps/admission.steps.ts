import { Given, When, Then } from '@cucumber/cucumber';
import { expect } from 'chai';
import type { AdmitOptions } from '../harness/driver/runtime-driver.js';
import type { KitWorld } from './support/world.js';

async function admit(world: KitWorld, text: string, options: AdmitOptions, session?: string): Promise<void> {
  await world.attempt(async () => {
    world.receipt = await world.driver.admit(world.session(session).id, text, options);
  });
}

Given('the user admits {string} with id {string} and no resume', function (this: KitWorld, text: string, id: string) {
  return admit(this, text, { id, resume: false });
});

When('the user admits {string} with no resume', function (this: KitWorld, text: string) {
  return admit(this, text, { resume: false });
});

When('the user admits {string} with id {string}', function (this: KitWorld, text: string, id: string) {
  return admit(this, text, { id });
});

Given(
  'the user admits {string} as {delivery} with no resume',
  function (this: KitWorld, text: string, delivery: string) {
    return admit(this, text, { delivery, resume: false });
  },
);

/** Any word: a runtime must refuse a delivery mode it does not know. */
When(
  'the user admits {string} as {word} to session {string} with id {string}',
  function (this: KitWorld, text: string, delivery: string, session: string, id: string) {
    return admit(this, text, { id, delivery, resume: false }, session);
  },
);

When('the user steers {string}', function (this: KitWorld, text: string) {
  return admit(this, text, { delivery: 'steer' });
});

When('the user steers {string} to session {string}', function (this: KitWorld, text: string, session: string) {
  return admit(this, text, { delivery: 'steer' }, session);
});

When('the user queues {string}', function (this: KitWorld, text: string) {
  return admit(this, text, { delivery: 'queue' });
});

Then('the receipt has a message ID', function (this: KitWorld) {
  expect(this.receipt?.messageId).to.be.a('string').and.not.equal('');
});

Then('the receipt names message {string}', function (this: KitWorld, id: string) {
  expect(this.receipt?.messageId).to.equal(id);
});

Then(
  'the receipt is the one of the first admission of {string}, {prompt-state}',
  function (this: KitWorld, id: string, state: string) {
    expect(this.receipt).to.deep.include({ messageId: id, state, duplicate: true });
  },
);

Then('the admission fails with {error-code}', function (this: KitWorld, code: string) {
  this.errorAsserted = true;
  expect(this.reportedError, 'the admission should have failed').to.not.equal(undefined);
  expect(this.reportedError!.code).to.equal(code);
});
