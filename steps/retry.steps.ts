import { Given, Then, When, type DataTable } from '@cucumber/cucumber';
import { expect } from 'chai';
import type { ScheduledRetryView } from '../harness/driver/protocol.js';
import { scriptCalls } from './provider.steps.js';
import type { KitWorld } from './support/world.js';

/** The retries the scenario let pass, in order, as the runtime scheduled them. */
const passed = new WeakMap<KitWorld, ScheduledRetryView[]>();

Given('the provider answers with status {int}, {int} times', function (this: KitWorld, status: number, times: number) {
  for (let i = 0; i < times; i++) {
    this.provider.enqueue({ turn: { kind: 'error', status, body: JSON.stringify({ error: { message: `status ${status}` } }) } });
  }
});

Given('the provider calls echo {string} {int} times in a row', function (this: KitWorld, text: string, times: number) {
  for (let i = 1; i <= times; i++) {
    if (scriptCalls(this, [{ id: `call_repeat_${i}`, name: 'echo', input: { text } }])) return 'skipped';
  }
  return undefined;
});

// Time moves only here: each scheduled retry is awaited, then the clock is set to its time.
When('the clock passes retries 1 to {int}', async function (this: KitWorld, last: number) {
  const seen = passed.get(this) ?? [];
  passed.set(this, seen);
  for (let retry = 1; retry <= last; retry++) {
    const scheduled = await this.driver.retryScheduled(this.session().id, retry);
    seen.push(scheduled);
    expect(Date.parse(scheduled.at), `retry ${retry} is due after its delay`).to.equal(Date.parse(this.now) + scheduled.delayMs);
    this.now = scheduled.at;
    await this.driver.setClock(this.now);
  }
});

Then('the retries waited:', function (this: KitWorld, table: DataTable) {
  const waited = (passed.get(this) ?? []).map(({ retry, delayMs }) => ({ retry: String(retry), seconds: String(delayMs / 1000) }));
  expect(waited).to.deep.equal(table.hashes());
});

When('the user submits {string} without an inbox', async function (this: KitWorld, text: string) {
  await this.attempt(async () => void (await this.driver.submit(this.session().id, text)));
});

Then('the submission is refused as busy', function (this: KitWorld) {
  this.errorAsserted = true;
  expect(this.reportedError, 'the submission should have been refused').to.not.equal(undefined);
  expect(this.reportedError!.code).to.equal('busy');
});
