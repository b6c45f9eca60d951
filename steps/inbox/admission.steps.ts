import { When, Then } from '@cucumber/cucumber';
import { expect } from 'chai';
import type { KitWorld } from '../support/world.js';
import { admit, image } from '../support/prompts.js';
import { conversation } from '../support/requests.js';

/**
 * An admission as the user may make it: with an image beside the text, a delivery mode (any word:
 * a runtime must refuse one it does not know), to another session, under a message ID, and
 * without waking the session.
 */
When(
  /^the user admits "([^"]*)"( with an image)?(?: as (\w+))?(?: to session "([^"]*)")?(?: (?:with|and) id "([^"]*)")?( (?:and|with) no resume)?$/,
  function (
    this: KitWorld,
    text: string,
    withImage?: string,
    delivery?: string,
    session?: string,
    id?: string,
    noResume?: string,
  ) {
    const prompt = withImage ? { parts: [{ type: 'text' as const, text }, image] } : text;
    const options = {
      ...(id ? { id } : {}),
      ...(delivery ? { delivery } : {}),
      ...(noResume ? { resume: false } : {}),
    };
    return admit(this, prompt, options, session);
  },
);

/**
 * A prompt admitted without an ID: its receipt names the message ID the runtime generated and
 * stored, the one its inbox row holds, and is no retry.
 */
Then(
  'the receipt is the one of a new admission of {string}, {prompt-state}',
  async function (this: KitWorld, text: string, state: string) {
    const rows = (await this.driver.inbox(this.session().id)).filter((row) => row.text === text);
    expect(rows, `inbox rows of "${text}"`).to.have.length(1);
    expect(rows[0]!.messageId, 'the generated message ID').to.be.a('string').and.not.equal('');
    expect(this.receipt).to.deep.equal({ messageId: rows[0]!.messageId, state, duplicate: false });
  },
);

Then(
  'the receipt is the one of the first admission of {string}, {prompt-state}',
  function (this: KitWorld, id: string, state: string) {
    expect(this.receipt).to.deep.include({ messageId: id, state, duplicate: true });
  },
);

/** An admission (`prompt.admit`), or a submission without an inbox (`prompt.submit`), that the runtime refused. */
Then('the {prompt-command} fails with {error-code}', function (this: KitWorld, command: string, code: string) {
  this.errorAsserted = true;
  if (!this.reportedError) {
    const admitted = command === 'admission' ? `admitted: ${JSON.stringify(this.receipt)}` : 'accepted';
    expect.fail(`the ${command} should have failed with ${code}, but it was ${admitted}`);
  }
  expect(this.reportedError.code, `the ${command} failed with another error code`).to.equal(code);
});

/**
 * After an interrupt cut the turn of a promoted prompt, `003` keeps the pending rows "for a later
 * fresh wake", and also says a wake does not treat provider work after a promoted input as safe to
 * retry: a wake may leave the pending prompt for an explicit run, or promote it in a new request
 * that carries the unanswered prompt as history. It never sends the cut turn again on its own.
 */
Then(
  'the wake either left {string} pending with no request, or promoted it in request {int} after the unanswered {string}',
  async function (this: KitWorld, pending: string, n: number, unanswered: string) {
    const row = (await this.driver.inbox(this.session().id)).find((r) => r.text === pending);
    expect(row, `the inbox row of "${pending}"`).to.not.equal(undefined);
    if (row!.state === 'pending') {
      expect(this.provider.requests.length, 'provider requests').to.equal(n - 1);
      this.tookReading('wake.after-interrupt', 'waits');
      return;
    }
    expect(this.provider.requests.length, 'provider requests').to.equal(n);
    // A runtime's own note of the interruption, a system message, may stand between them.
    const messages = conversation(this, n).filter((row) => row.role !== 'system');
    expect(messages.slice(-2)).to.deep.equal([
      { role: 'user', content: unanswered },
      { role: 'user', content: pending },
    ]);
    this.tookReading('wake.after-interrupt', 'promotes');
  },
);
