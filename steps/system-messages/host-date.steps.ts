import { realpathSync } from 'node:fs';
import { Given, When, Then } from '@cucumber/cucumber';
import { expect } from 'chai';
import type { KitWorld } from '../support/world.js';
import { restartKeepingPrompts } from '../support/restart.js';
import { baselineOf, conversation, type Placement, somethingToldAfter, toldAfter } from '../support/requests.js';
import { dateRenderings, escapeRegExp } from '../support/text.js';
import { orEmpty } from '../../harness/report/failure-words.js';

/**
 * The local dates in `timeZone` a runtime may state: of the kit's virtual time, which a runtime
 * with a virtual clock follows, and of the host clock before and after the runtime answered,
 * which a black box follows (both, should local midnight pass in between).
 */
function localDates(world: KitWorld, timeZone: string): string[] {
  const iso = (instant: number) =>
    new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(instant);
  return [...new Set([Date.parse(world.now), ...world.hostReadings, Date.now()].map(iso))];
}

const namesDateIn = (world: KitWorld, text: string, timeZone: string) =>
  localDates(world, timeZone).some((date) => dateRenderings(date).some((rendering) => text.includes(rendering)));

Then(
  'the baseline of request {int} names the local date in {string}',
  function (this: KitWorld, n: number, timeZone: string) {
    expect(
      namesDateIn(this, baselineOf(this, n), timeZone),
      `the baseline names a date of ${localDates(this, timeZone).join(' or ')}`,
    ).to.equal(true);
  },
);

Then(
  /^request (\d+) (tells|does not tell) the model the local date in "([^"]*)" (after|beside) "([^"]*)"$/,
  function (this: KitWorld, n: string, tells: string, timeZone: string, placement: Placement, input: string) {
    const told = (tells === 'tells' ? somethingToldAfter : toldAfter)(this, Number(n), input, placement);
    expect(
      told.filter((message) => namesDateIn(this, message, timeZone)),
      `messages ${placement} "${input}" naming ${localDates(this, timeZone).join(' or ')}`,
    ).to.have.length(tells === 'tells' ? 1 : 0);
  },
);

/**
 * A runtime that states the new date only in a baseline it rebuilt tells it in no message: whether
 * it should keep its baseline is EPO-04's, judged after; this check had nothing to tell apart.
 */
Then(
  'request {int} tells the model the local date in {string} in its conversation',
  function (this: KitWorld, n: number, timeZone: string) {
    const told = conversation(this, n).filter((row) => namesDateIn(this, row.content, timeZone));
    if (
      told.length === 0 &&
      namesDateIn(this, baselineOf(this, n), timeZone) &&
      baselineOf(this, 1) !== baselineOf(this, n)
    ) {
      this.notJudged(
        `request ${n} names the new local date in its rebuilt baseline only: the runtime told the change in no message`,
      );
      return;
    }
    expect(told, `messages of request ${n} naming ${localDates(this, timeZone).join(' or ')}`).to.have.length.above(0);
  },
);

Then(
  'the baseline of request {int} names the working directory of {string}',
  function (this: KitWorld, n: number, name: string) {
    const { workspace } = this.session(name);
    const baseline = baselineOf(this, n);
    // The directory itself, not a parent of it: the next character ends the path.
    const named = [workspace, realpathSync(workspace)].some((path) =>
      new RegExp(`${escapeRegExp(path)}(?![\\w/.-])`).test(baseline),
    );
    expect(named, `the baseline names ${workspace}\nthe baseline:\n${orEmpty(baseline)}`).to.equal(true);
  },
);

// A black box's date comes from its host clock: the kit moves it by restarting the runtime in
// another time zone, and notes the host time of each start to know which dates it may state.
Given("the runtime's host is in the time zone {string}", async function (this: KitWorld, timeZone: string) {
  this.hostReadings.push(Date.now());
  await this.driver.restart(this.now, timeZone);
});

When('the runtime process restarts in the time zone {string}', async function (this: KitWorld, timeZone: string) {
  this.hostReadings.push(Date.now());
  await restartKeepingPrompts(this, () => this.driver.restart(this.now, timeZone));
});
