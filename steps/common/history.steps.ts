import { Then, type DataTable } from '@cucumber/cucumber';
import { expect } from 'chai';
import { NothingToJudge } from '../../harness/report/outcome.js';
import type { HistoryMessage } from '../../harness/protocol/protocol.js';
import type { KitWorld } from '../support/world.js';
import { historyRow, matchRows, shownRows, type Row } from '../support/rows.js';
import { expectInOrder } from '../support/text.js';
import { commandTimeoutMs } from '../support/timing.js';

Then(
  'the session reports the failure {failure-code} mentioning {string}',
  async function (this: KitWorld, code: string, text: string) {
    const failures = await this.driver.failures(this.session().id);
    expect(failures.map((f) => f.code)).to.deep.equal([code]);
    expect(failures[0]!.message).to.include(text);
  },
);

/**
 * A rule about how a kind of failure ends has nothing to judge on a runtime that never had that
 * failure: a drain no allowance ends (RUN-02, judged in its own scenarios), a refusal the runtime
 * did not take for an overflow (CMP-10's).
 */
Then(
  'the session reports the failure {failure-code}, or nothing here is judged',
  async function (this: KitWorld, code: string) {
    const failures = await this.driver.failures(this.session().id);
    if (!failures.some((failure) => failure.code === code))
      throw new NothingToJudge(
        `the session reports no failure "${code}"${failures.length > 0 ? ` (it reports ${failures.map((f) => `"${f.code}"`).join(', ')})` : ''}`,
      );
  },
);

/**
 * The failure's own words say what overflowed, in any of the ways runtimes and providers put it
 * ("context length exceeded", "prompt is too long", "input too large"): its meaning, not one wording.
 */
const OVERFLOW_WORDS = /context|too long|too large|overflow|exceed|maximum/i;

Then(
  'the session reports the failure {failure-code}, saying the context overflowed',
  async function (this: KitWorld, code: string) {
    const failures = await this.driver.failures(this.session().id);
    expect(failures.map((f) => f.code)).to.deep.equal([code]);
    expect(failures[0]!.message, 'the failure says the context overflowed').to.match(OVERFLOW_WORDS);
  },
);

const KEYS: Record<string, (row: { messageId: string; text: string; delivery: string; state: string }) => string> = {
  id: (row) => row.messageId,
  text: (row) => row.text,
  delivery: (row) => row.delivery,
  state: (row) => row.state,
};

/**
 * A delivery of `default` is the delivery of a prompt that named none: the seeds leave it open, so
 * it is the one the runtime declares (`texts["prompt.default-delivery"]`), or either mode.
 */
Then('the inbox is:', async function (this: KitWorld, table: DataTable) {
  const declared = this.driver.description.texts['prompt.default-delivery'];
  const defaults = declared === undefined ? ['steer', 'queue'] : [declared];
  const expected = table.hashes();
  const columns = Object.keys(expected[0] ?? {});
  const rows = await this.driver.inbox(this.session().id);
  const actual = rows.map((row) => Object.fromEntries(columns.map((c) => [c, KEYS[c]!(row)])));
  const resolved = expected.map((row, i) =>
    row.delivery === 'default' && defaults.includes(actual[i]?.delivery ?? '')
      ? { ...row, delivery: actual[i]!.delivery! }
      : row,
  );
  expect(actual).to.deep.equal(resolved);
  const taken = expected.flatMap((row, i) => (row.delivery === 'default' ? [actual[i]!.delivery!] : []));
  for (const reading of new Set(taken)) this.tookReading('prompt.default-delivery', reading);
});

/**
 * The one event that promotes a prompt both consumes its inbox row and appends its user message:
 * the row's promotion sequence is the sequence of that message in history, and comes after its
 * admission.
 */
Then('each promoted prompt has the sequence of its user message in history', async function (this: KitWorld) {
  const history = await this.driver.history(this.session().id);
  const promoted = (await this.driver.inbox(this.session().id)).filter((row) => row.state === 'promoted');
  expect(promoted.length, 'promoted prompts in the inbox').to.be.greaterThan(0);
  for (const row of promoted) {
    const message = history.find((m) => m.role === 'user' && m.id === row.messageId);
    expect(message, `the user message of prompt ${row.messageId} in history`).to.not.equal(undefined);
    expect(row.promotedSeq, `the promotion sequence of prompt ${row.messageId}`).to.equal(message!.seq);
    expect(row.promotedSeq!, `the promotion of prompt ${row.messageId} after its admission`).to.be.greaterThan(
      row.admittedSeq,
    );
  }
});

Then(
  'the inbox of session {string} holds {int} prompt(s)',
  async function (this: KitWorld, name: string, count: number) {
    expect(await this.driver.inbox(this.session(name).id)).to.have.length(count);
  },
);

async function historyRows(world: KitWorld): Promise<Row[]> {
  return (await world.driver.history(world.session().id)).map(historyRow);
}

/** Every message of the history, a kit tool's calls and outputs as the runtime's tool means show them. */
Then('the history is:', async function (this: KitWorld, table: DataTable) {
  const expected = table.hashes() as unknown as Row[];
  expect(matchRows(await historyRows(this), expected, this.means)).to.deep.equal(shownRows(expected, this.means));
});

/**
 * The durable order of one boundary (EPO-03): the input promoted there precedes the system message
 * the boundary's reconciliation wrote, whatever order the request then puts them in (MCS-01's).
 * A history that keeps no such system message shows no order.
 */
Then(
  'the history holds the user message {string} before the system message telling {string}',
  async function (this: KitWorld, input: string, told: string) {
    const rows = await historyRows(this);
    const system = rows.findLastIndex((row) => row.role === 'system' && row.content.includes(told));
    if (system < 0) {
      // The scenario's other rules are still judged by their own checks.
      this.notJudged(`the history keeps no system message telling "${told}": no order to see`);
      return;
    }
    const user = rows.findLastIndex((row) => row.role === 'user' && row.content === input);
    expect(user >= 0, `whether history holds the user message "${input}"`).to.equal(true);
    expect(
      user < system,
      `whether the user message "${input}" comes before the system message telling "${told}" in history`,
    ).to.equal(true);
  },
);

/**
 * The order of prompts in history, however the runtime grouped them into turns or messages: each
 * stands once in the user messages, and in this order.
 */
Then(
  'the user messages of the history hold, once each and in order:',
  async function (this: KitWorld, table: DataTable) {
    const prompts = table.raw().map(([text]) => text!);
    const users = (await historyRows(this)).filter((row) => row.role === 'user').map((row) => row.content);
    const text = users.join('\n');
    for (const prompt of prompts)
      expect(
        text.split(prompt).length - 1,
        `times "${prompt}" stands in the user messages ${JSON.stringify(users)}`,
      ).to.equal(1);
    expectInOrder(text, prompts);
  },
);

Then('the history has no user message {string}', async function (this: KitWorld, text: string) {
  expect(await historyRows(this)).to.not.deep.include({ role: 'user', content: text });
});

Then(
  'the history has {int} {message-role} message(s) {string}',
  async function (this: KitWorld, count: number, role: 'user' | 'assistant', text: string) {
    const found = (await historyRows(this)).filter((row) => row.role === role && row.content === text);
    expect(found.length, `${role} messages "${text}" in history`).to.equal(count);
  },
);

async function toolMessages(world: KitWorld, name?: string) {
  return (await world.driver.history(world.session().id)).filter(
    (message): message is Extract<HistoryMessage, { role: 'tool' }> =>
      message.role === 'tool' && (name === undefined || world.means.isCallOf(message, name)),
  );
}

Then('the history has the tool call {string} running', async function (this: KitWorld, name: string) {
  expect((await toolMessages(this, name)).map((m) => m.status)).to.deep.equal(['running']);
});

/**
 * A scenario about what a restart does to a call the runtime recorded running needs that record:
 * a runtime that writes it a moment after the call started (RUN-01's to judge, in its own
 * scenarios) is given that moment, read again until one command's time has passed.
 */
Then(
  'the history comes to have a/the tool call {string} running, or nothing here is judged',
  async function (this: KitWorld, name: string) {
    const deadline = performance.now() + commandTimeoutMs();
    for (;;) {
      if ((await toolMessages(this, name)).some((m) => m.status === 'running')) return;
      if (performance.now() > deadline)
        throw new NothingToJudge(
          `the history never showed the tool call "${name}" running while it ran: there was no record for the restart to find`,
        );
      // The runtime's own write, on its own timer: the kit reads again rather than sleeping it away.
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  },
);

/** Of a turn's calls of one tool, the one running now is durable (the others may not have started). */
Then('the history has a tool call {string} running', async function (this: KitWorld, name: string) {
  expect((await toolMessages(this, name)).map((m) => m.status)).to.include('running');
});

Then(
  'the history has the tool call {string} settled as {tool-status}',
  async function (this: KitWorld, name: string, status: string) {
    expect((await toolMessages(this, name)).map((m) => m.status)).to.deep.equal([status]);
  },
);

/**
 * After an interrupt's cleanup the call is no longer running; what it settled as (an error, an
 * interruption, a cancellation) the seeds leave to the runtime for a call stopped in process.
 */
Then(
  'the history has the tool call {string} settled, no longer running',
  async function (this: KitWorld, name: string) {
    const statuses = (await toolMessages(this, name)).map((m) => m.status);
    expect(statuses, `the statuses of the tool call "${name}" in the history`).to.have.length(1);
    expect(statuses[0], `the status of the tool call "${name}" after the cleanup`).to.not.equal('running');
  },
);

Then('the history has {int} settled tool calls', async function (this: KitWorld, count: number) {
  const settled = (await toolMessages(this)).filter((m) => m.status === 'success');
  expect(settled).to.have.length(count);
});

Then('the session reports no failure', async function (this: KitWorld) {
  expect(await this.driver.failures(this.session().id)).to.deep.equal([]);
});

/**
 * A drain that stays within the provider-turn allowance (finishing on its 25th turn, or past it
 * after a reset) says something only of a runtime that fails a drain with work left after 25
 * turns: where a later such drain runs on, the earlier pass is not judged (whether the runtime has
 * the allowance at all is the business of the scenario that checks it, RUN-02's).
 */
Then(
  'a drain with work left failed after 25 provider turns, or the runtime has no such allowance to judge',
  async function (this: KitWorld) {
    const failed = (await this.driver.failures(this.session().id)).map((f) => f.code);
    if (failed.includes('turn-limit')) {
      expect(failed).to.deep.equal(['turn-limit']);
      return;
    }
    this.notJudged(
      'no drain with work left failed after 25 provider turns: without a provider-turn allowance, a drain that stays within one proves nothing',
    );
  },
);

Then('the session reports the failure {failure-code}', async function (this: KitWorld, code: string) {
  expect((await this.driver.failures(this.session().id)).map((f) => f.code)).to.deep.equal([code]);
});
