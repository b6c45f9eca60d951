import { Given, Then, When, type DataTable } from '@cucumber/cucumber';
import { expect } from 'chai';
import { errorTurn, resetTurn, toolCall } from '../../harness/provider/turns.js';
import { scriptCalls } from '../support/tool-calls.js';
import { requestsWithinCommandTimeout, withinCommandTimeout } from '../support/timing.js';
import type { KitWorld } from '../support/world.js';

/**
 * Refusals of the provider, as many as given (one by default), with a Retry-After in seconds or as
 * the HTTP date so many seconds after the kit's clock, which stands still until a retry is due.
 */
Given(
  /^the provider answers with status (\d+)(?: and a Retry-After of (\d+) seconds(, as an HTTP date)?)?(?:, (\d+) times)?$/,
  function (this: KitWorld, status: string, seconds?: string, asDate?: string, times?: string) {
    const retryAfter =
      seconds === undefined || !asDate
        ? seconds
        : new Date(Date.parse(this.now) + Number(seconds) * 1000).toUTCString();
    for (let i = 0; i < Number(times ?? 1); i++) this.provider.enqueue({ turn: errorTurn(Number(status), retryAfter) });
  },
);

/** Requests whose connection the provider resets once it has read them, as many as given (one by default). */
Given(/^the provider resets the connection(?:, (\d+) times)?$/, function (this: KitWorld, times?: string) {
  for (let i = 0; i < Number(times ?? 1); i++) this.provider.enqueue({ turn: resetTurn() });
});

/**
 * Retries the provider asked for at once (`Retry-After: 0`) arrive while the kit's clock stands
 * still, and on a runtime's own clock well within one command's time: a runtime that waits its
 * schedule instead does not send them in time.
 */
Then('the provider receives {int} requests without a wait', function (this: KitWorld, count: number) {
  return requestsWithinCommandTimeout(this, count, 'the runtime waits before a retry the provider allowed at once');
});

Given('the provider calls echo {string} {int} times in a row', function (this: KitWorld, text: string, times: number) {
  for (let i = 1; i <= times; i++) {
    if (scriptCalls(this, [toolCall(`call_repeat_${i}`, 'echo', { text })])) return 'skipped';
  }
  return undefined;
});

/**
 * Time moves only here. The runtime's `retry.wait` answer only says that it waits and until when,
 * so the kit knows how far to move its clock; the delay itself is measured: from the virtual time
 * the provider answered the failed attempt to the virtual time the next request arrived. A runtime
 * that retries before the kit moves the clock is caught whatever schedule it reports. The retries
 * are those of the provider turn whose first attempt was request 1, or the request named.
 */
When(
  /^the clock passes retries 1 to (\d+)(?: of request (\d+))?$/,
  async function (this: KitWorld, to: string, of?: string) {
    const last = Number(to);
    const before = Number(of ?? 1) - 1;
    for (let retry = 1; retry <= last; retry++) {
      const scheduled = await retryScheduled(this, retry, before + retry);
      const failed = this.provider.requests[before + retry - 1];
      if (!failed?.answeredAt)
        throw new Error(
          `the runtime waits to send retry ${retry}, but the provider answered only ${this.provider.requests.length} request(s)`,
        );
      // The kit's clock moves before the runtime hears of it, so a request sent once it moved is stamped with the new time.
      if (Date.parse(scheduled.at) > Date.parse(this.now)) this.now = scheduled.at;
      await this.driver.setClock(this.now);
      await this.driver.time.measure('other awaited states', () =>
        withinCommandTimeout(
          this.provider.received(before + retry + 1),
          `the clock reached ${this.now}, when the runtime said retry ${retry} was due, and no request followed`,
        ),
      );
      const next = this.provider.requests[before + retry]!;
      this.retryDelays.push({ retry, delayMs: Date.parse(next.arrivedAt!) - Date.parse(failed.answeredAt) });
    }
  },
);

/**
 * Retry `retry`'s schedule; a session that settles first without sending it took the failure as
 * final, which fails here rather than at the wait's deadline. One that sent it at once has its
 * delay measured as any other.
 */
async function retryScheduled(world: KitWorld, retry: number, sentAt: number) {
  const sessionId = world.session().id;
  const scheduled = world.driver.call('retry.wait', { sessionId, retry });
  const settled = world.driver.idle(sessionId).then(
    () => true,
    () => false,
  );
  // The wait's own failure (a refusal, its deadline) is the one to tell, not the settling's.
  const first = await Promise.race([
    scheduled.then(() => false),
    settled.then((idle) => idle || scheduled.then(() => false)),
  ]);
  if (first && world.provider.requests.length <= sentAt)
    expect.fail(`the session settled without scheduling retry ${retry}: the runtime took the failure as final`);
  return scheduled;
}

Then('the retries waited:', function (this: KitWorld, table: DataTable) {
  const rows = this.retryDelays.map(({ retry, delayMs }) => ({
    retry: String(retry),
    seconds: String(delayMs / 1000),
  }));
  expect(rows, 'the delays the kit measured between an answered attempt and the next request').to.deep.equal(
    table.hashes(),
  );
});

When('the user submits {string} without an inbox', async function (this: KitWorld, text: string) {
  await this.attempt(async () => void (await this.driver.submit(this.session().id, text)));
});

/**
 * A response broken off after some text may end its turn as a failure, or be sent again: then the
 * request goes out as it was, and the answer stands on its own. Either way the broken-off text is
 * never taken for a whole answer, nor joined to the retry's.
 */
Then(
  'the response broken off after {string} failed its turn, or its retry answered {string}',
  async function (this: KitWorld, partial: string, answer: string) {
    const replies = (await this.driver.history(this.session().id)).flatMap((m) =>
      m.role === 'assistant' ? [{ text: m.text, status: m.status }] : [],
    );
    const failures = await this.driver.failures(this.session().id);
    const brokenOff = { text: partial, status: 'failed' };
    const [first, retry] = this.provider.requests;
    if (retry === undefined) {
      expect(replies, 'assistant messages in history').to.deep.equal([brokenOff]);
      expect(failures.length, 'failures the session reports for the broken-off turn').to.equal(1);
      return;
    }
    expect(retry.messages, 'the retried request').to.deep.equal(first!.messages);
    expect(
      replies.filter((reply) => reply.text !== partial || reply.status !== 'failed'),
      'assistant messages in history besides the broken-off one',
    ).to.deep.equal([{ text: answer, status: 'completed' }]);
    expect(replies.at(-1)?.text, 'the last assistant message').to.equal(answer);
    expect(failures, 'failures the session reports').to.deep.equal([]);
  },
);
