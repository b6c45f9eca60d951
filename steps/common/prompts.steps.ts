import { When } from '@cucumber/cucumber';
import type { KitWorld } from '../support/world.js';
import { admit } from '../support/prompts.js';

When('the user steers {string}', function (this: KitWorld, text: string) {
  return admit(this, text, { delivery: 'steer' });
});

When('the user steers {string} to session {string}', function (this: KitWorld, text: string, session: string) {
  return admit(this, text, { delivery: 'steer' }, session);
});

When('the user queues {string}', function (this: KitWorld, text: string) {
  return admit(this, text, { delivery: 'queue' });
});
