import { Given, When, Then, type DataTable } from '@cucumber/cucumber';
import { expect } from 'chai';
import { declares } from '../../harness/protocol/capabilities.js';
import type { WriteMode } from '../support/parameter-types.js';
import type { KitWorld } from '../support/world.js';
import {
  conversation,
  lastSystemMessage,
  type RequestText,
  request,
  systemMessages,
  textOf,
} from '../support/requests.js';
import { dateRenderings, expectInOrder } from '../support/text.js';
import { orEmpty } from '../../harness/report/failure-words.js';
import { settingKeepingPrompts } from '../support/restart.js';
import { NothingToJudge } from '../../harness/report/outcome.js';

Given('the host environment sets {word} to {string}', async function (this: KitWorld, name: string, value: string) {
  await settingKeepingPrompts(this, `the host variable ${name}`, () =>
    this.driver.call('host.env.set', { name, value }),
  );
});

When('durable writes of system messages {write-mode}', async function (this: KitWorld, mode: WriteMode) {
  if (mode === 'holding') throw new Error('the kit cannot make a system message write hang, only fail or work');
  await this.driver.call('fault.system-message-writes', { failing: mode === 'failing' });
});

/**
 * A runtime without the kit's context sources may announce context of its own (its environment)
 * in a system message that its history then carries into every later request: only a system
 * message that request `n - 1` did not already carry is one sent at this boundary.
 */
Then('request {int} has no system message', function (this: KitWorld, n: number) {
  const carried =
    n > 1 && !declares(this.driver.description, 'kit-sources') ? new Set(systemMessages(this, n - 1)) : new Set();
  expect(systemMessages(this, n).filter((text) => !carried.has(text))).to.deep.equal([]);
});

/** Promoted input comes before the system message of its boundary: no user turn follows the last system message. */
Then('request {int} has no user message after its last system message', function (this: KitWorld, n: number) {
  const rows = conversation(this, n);
  const at = rows.findLastIndex((row) => row.role === 'system');
  if (at < 0) throw new Error(`request ${n} carries no system message after its baseline`);
  const after = rows.slice(at + 1).filter((row) => row.role === 'user');
  expect(
    after.map((row) => row.content),
    `user messages after the last system message of request ${n}`,
  ).to.deep.equal([]);
});

Then('request {int} has {int} system message(s)', function (this: KitWorld, n: number, count: number) {
  expect(systemMessages(this, n)).to.have.length(count);
});

Then('the last system message of request {int} is:', function (this: KitWorld, n: number, text: string) {
  expect(lastSystemMessage(this, n)).to.equal(text);
});

Then('{request-text} contains, in order:', function (this: KitWorld, part: RequestText, table: DataTable) {
  expectInOrder(
    textOf(this, part),
    table.raw().map(([text]) => text!),
  );
});

/** A control: where the runtime shows no such text, a check that it leaves the text out could not fail. */
Then(
  '{request-text} contains {string}, or nothing here is judged',
  function (this: KitWorld, part: RequestText, text: string) {
    if (!textOf(this, part).includes(text))
      throw new NothingToJudge(
        `${part.part} of request ${part.n} does not contain "${text}": the control the scenario needs does not hold`,
      );
  },
);

Then('{request-text} does not contain {string}', function (this: KitWorld, part: RequestText, text: string) {
  expect(textOf(this, part), `${part.part} of request ${part.n}`).to.not.include(text);
});

Then(
  '{request-text} {names} the date {string}',
  function (this: KitWorld, part: RequestText, names: boolean, date: string) {
    const text = textOf(this, part);
    const found = dateRenderings(date).filter((rendering) => text.includes(rendering));
    expect(
      found.length > 0,
      `whether ${part.part} of request ${part.n} names ${date} (found ${JSON.stringify(found)})\nthe text:\n${orEmpty(text)}`,
    ).to.equal(names);
  },
);

/**
 * How request `n` carries its system message: as a message of the system role, or in the
 * runtime's declared wrapper in a user turn. Where the provider's protocol has a system role
 * anywhere, `000` still lowers to it only "when supported", which a runtime decides per provider
 * (`system-message.chat-role`): the wrapper is the other reading.
 */
Then(
  /^request (\d+) carries its system message (with the native system role|wrapped as declared in a user turn)$/,
  function (this: KitWorld, n: string, how: string) {
    if (how === 'with the native system role' && request(this, Number(n)).messages.at(-1)?.role === 'system') {
      this.tookReading('system-message.chat-role', 'native');
      return;
    }
    const fallback = this.systemFallback();
    if (!fallback)
      expect.fail(
        `request ${n} carries no system message in the system role, and the runtime declares no wrapper (texts "system-message.fallback") to read one in a user turn`,
      );
    const { messages } = request(this, Number(n));
    const lastUser = messages.findLast((message) => message.role === 'user');
    expect(
      lastUser && fallback!.split(lastUser.text)?.system,
      'a user turn ending with one wrapped system message',
    ).to.be.a('string');
    expect(
      messages.some((message) => message.role === 'system'),
      `whether request ${n} also has a message with the native system role`,
    ).to.equal(false);
    if (how === 'with the native system role') this.tookReading('system-message.chat-role', 'wrapped');
  },
);

/** `000` lets a user transcript show system messages or hide them; `001` (profile checkpoint) hides them. */
/**
 * What a runtime keeps of a system message it lowered into a user turn: the text as sent, wrapped,
 * or bare, as its declared wrapper reads.
 */
function keptAsSent(world: KitWorld, kept: string, sent: string): boolean {
  const parts = world.systemFallback()?.split(kept);
  const unwrapped = parts && parts.before.length === 0 && parts.user === undefined ? parts.system : undefined;
  // The line break a runtime puts after the block, before the user's text, is no part of it.
  return kept === sent || sent === `${kept}\n` || unwrapped === sent;
}

/**
 * The message of request `n` that told `text` (one of its own, or one its declared wrapper sets
 * apart in a user turn) is in the durable history as a system message, with the text it was sent with.
 */
Then(
  'the history holds the message of request {int} that tells {string}, as sent',
  async function (this: KitWorld, n: number, text: string) {
    const sent = conversation(this, n)
      .map((row) => row.content)
      .filter((content) => content.includes(text));
    expect(sent, `messages of request ${n} telling "${text}"`).to.have.length(1);
    const held = (await this.driver.history(this.session().id)).filter(
      (m) => m.role === 'system' && keptAsSent(this, m.text, sent[0]!),
    );
    expect(held, `the durable history holds the message of request ${n} telling "${text}", as sent`).to.have.length(1);
  },
);

Then(
  /^the history holds the system message of request (\d+)(, hidden from the user transcript)?$/,
  async function (this: KitWorld, n: string, hidden?: string) {
    const sent = lastSystemMessage(this, Number(n));
    const held = (await this.driver.history(this.session().id)).filter((m) => m.role === 'system' && m.text === sent);
    expect(held, `the durable history holds the system message of request ${n}`).to.have.length.greaterThan(0);
    if (hidden) expect(held.map((m) => m.hidden)).to.deep.equal(held.map(() => true));
  },
);
