import { Given, When, Then, type DataTable } from '@cucumber/cucumber';
import { expect } from 'chai';
import { textTurn, recordingTurn } from '../../harness/provider/turns.js';
import type { ModelVisibleMessage } from '../../harness/provider/captured-request.js';
import type { KitWorld } from '../support/world.js';
import { request } from '../support/requests.js';

Given('the provider summarizes with {string}', function (this: KitWorld, summary: string) {
  this.provider.enqueue({ turn: textTurn(summary, 2) });
});

When('the user asks for a compaction', async function (this: KitWorld) {
  await this.driver.requestCompaction(this.session().id);
});

/** Every compaction the runtime reports (a self-reported view); `tokensFreed` only where the table names it. */
Then("the session's compactions are:", async function (this: KitWorld, table: DataTable) {
  const expected = table.hashes();
  const named = expected.some((row) => 'tokensFreed' in row);
  const reported = (await this.driver.compactions(this.session().id)).map(({ tokensFreed, ...rest }) => ({
    ...rest,
    ...(named && tokensFreed !== undefined ? { tokensFreed: String(tokensFreed) } : {}),
  }));
  expect(reported).to.deep.equal(expected);
});

Then(
  'request {int} {mention} {string} in its conversation',
  function (this: KitWorld, n: number, mentions: boolean, text: string) {
    const mentioned = request(this, n).messages.some((m) => m.text.includes(text));
    expect(mentioned, `whether a message of request ${n} mentions "${text}"`).to.equal(mentions);
  },
);

/** SCP-03 fixes the user turn a summary may answer; the pair then stands for the checkpoint. */
const COMPACTION_TRIGGER = 'What did we do so far?';

/** The messages of request `n`, a leading `COMPACTION_TRIGGER` and the answer to it read as one checkpoint message. */
function checkpointFirst(world: KitWorld, n: number): ModelVisibleMessage[] {
  const messages = request(world, n).messages;
  const [first, second] = messages;
  if (first?.role !== 'user' || first.text !== COMPACTION_TRIGGER || second?.role !== 'assistant') return messages;
  return [{ ...second, role: 'user' }, ...messages.slice(2)];
}

Then(
  'the conversation of request {int} starts with a message mentioning {string}',
  function (this: KitWorld, n: number, text: string) {
    const [first] = checkpointFirst(this, n);
    expect(first?.text ?? '', `the first message of request ${n}`).to.include(text);
  },
);

Then('the history still holds the system message {string}', async function (this: KitWorld, text: string) {
  const held = (await this.driver.history(this.session().id)).flatMap((m) => (m.role === 'system' ? [m.text] : []));
  expect(held).to.include(text);
});

/** Plain English text of an exact length: every tokenizer counts roughly four characters a token. */
function prose(length: number): string {
  const sentence = 'The quick brown fox jumps over the lazy dog while the kit counts every token. ';
  return sentence.repeat(Math.ceil(length / sentence.length)).slice(0, length);
}

Given(
  'the context window is {int} tokens with an output allowance of {int} and a compaction buffer of {int}',
  async function (this: KitWorld, contextWindow: number, outputAllowance: number, buffer: number) {
    await this.driver.configureCompaction({ contextWindow, outputAllowance, buffer });
  },
);

Given(
  'the context window is {int} tokens with an output allowance of {int} and a compaction buffer of {int}, with {budget-switch} off',
  async function (
    this: KitWorld,
    contextWindow: number,
    outputAllowance: number,
    buffer: number,
    off: 'auto' | 'prune',
  ) {
    await this.driver.configureCompaction({ contextWindow, outputAllowance, buffer, [off]: false });
  },
);

Given(
  'the context window is {int} tokens, {int} for the model {string}, with an output allowance of {int} and a compaction buffer of {int}',
  async function (
    this: KitWorld,
    contextWindow: number,
    window: number,
    model: string,
    outputAllowance: number,
    buffer: number,
  ) {
    await this.driver.configureCompaction({
      contextWindow,
      outputAllowance,
      buffer,
      modelWindows: { [model]: window },
    });
  },
);

Given('the provider replies with {int} characters of prose', function (this: KitWorld, length: number) {
  this.provider.enqueue({ turn: textTurn(prose(length), 4) });
});

Given(
  'the provider summarizes with {string} in {int} chunk(s)',
  function (this: KitWorld, summary: string, chunks: number) {
    this.provider.enqueue({ turn: textTurn(summary, chunks) });
  },
);

When('the user steers {int} characters of prose', async function (this: KitWorld, length: number) {
  this.receipt = await this.driver.admit(this.session().id, prose(length), { delivery: 'steer' });
});

Then('the session has {int} completed compaction(s)', async function (this: KitWorld, count: number) {
  const completed = (await this.driver.compactions(this.session().id)).filter((c) => c.status === 'completed');
  expect(completed).to.have.length(count);
});

Then('request {int} is shorter than {int} characters', function (this: KitWorld, n: number, length: number) {
  expect(JSON.stringify(request(this, n).body).length).to.be.below(length);
});

Then('request {int} carries no assistant or tool message', function (this: KitWorld, n: number) {
  expect(
    checkpointFirst(this, n)
      .filter((m) => m.role === 'assistant' || m.role === 'tool')
      .map((m) => m.role),
  ).to.deep.equal([]);
});

Then('the history still holds an assistant reply of {int} characters', async function (this: KitWorld, length: number) {
  const replies = (await this.driver.history(this.session().id)).flatMap((m) =>
    m.role === 'assistant' ? [m.text.length] : [],
  );
  expect(replies).to.include(length);
});

Then(
  'the history holds one hidden compaction checkpoint with the summary {string}',
  async function (this: KitWorld, summary: string) {
    const checkpoints = (await this.driver.history(this.session().id)).flatMap((m) =>
      m.role === 'compaction' ? [{ text: m.text, hidden: m.hidden }] : [],
    );
    expect(checkpoints).to.deep.equal([{ text: summary, hidden: true }]);
  },
);

Given('the provider refuses the request as too long for its context window', function (this: KitWorld) {
  this.provider.enqueue({ turn: recordingTurn('context-overflow') });
});
