import { Given, When } from '@cucumber/cucumber';
import type { KitWorld } from '../support/world.js';
import { admit } from '../support/prompts.js';

Given('the user admits {string} with id {string} and no resume', function (this: KitWorld, text: string, id: string) {
  return admit(this, text, { id, resume: false });
});

Given(
  'the user admits {string} as {delivery} with no resume',
  function (this: KitWorld, text: string, delivery: string) {
    return admit(this, text, { delivery, resume: false });
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
