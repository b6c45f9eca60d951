import { Given, When } from '@cucumber/cucumber';
import { AdapterFailed } from '../../harness/driver/stdio.js';
import type { CrashPoint } from '../../harness/driver/protocol.js';
import type { KitWorld } from '../support/world.js';

Given(
  'the runtime is to crash right after it stores {crash-point}',
  async function (this: KitWorld, after: CrashPoint) {
    await this.driver.crashAfter(this.session().id, after);
  },
);

/** The admission itself may be the write the runtime dies after: then no reply comes. */
When('the user steers {string}, which may crash the runtime', async function (this: KitWorld, text: string) {
  try {
    this.receipt = await this.driver.admit(this.session().id, text, { delivery: 'steer' });
  } catch (error) {
    if (!(error instanceof AdapterFailed)) throw error;
  }
});

When('the crashed runtime starts again', async function (this: KitWorld) {
  await this.driver.startAfterCrash(this.now);
});
