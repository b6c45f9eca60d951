import { When, Then } from '@cucumber/cucumber';
import { expect } from 'chai';
import type { KitWorld } from '../support/world.js';
import { admit } from '../support/prompts.js';

When('the user admits {string} with no resume', function (this: KitWorld, text: string) {
  return admit(this, text, { resume: false });
});

When('the user admits {string} with id {string}', function (this: KitWorld, text: string, id: string) {
  return admit(this, text, { id });
});

/** Any word: a runtime must refuse a delivery mode it does not know. */
When(
  'the user admits {string} as {word} to session {string} with id {string}',
  function (this: KitWorld, text: string, delivery: string, session: string, id: string) {
    return admit(this, text, { id, delivery, resume: false }, session);
  },
);

Then('the receipt has a message ID', function (this: KitWorld) {
  expect(this.receipt?.messageId).to.be.a('string').and.not.equal('');
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
