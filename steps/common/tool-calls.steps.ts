import { NothingToJudge } from '../../harness/report/outcome.js';
import { Given, Then } from '@cucumber/cucumber';
import { expect } from 'chai';
import type { KitWorld } from '../support/world.js';
import { toolCall } from '../support/tool-calls.js';
import { request } from '../support/requests.js';

Then(
  'request {int} gives call {string} an output mentioning {string}',
  function (this: KitWorld, n: number, id: string, text: string) {
    const outputs = request(this, n)
      .messages.filter((m) => m.role === 'tool' && m.toolCallId === id)
      .map((m) => m.text);
    expect(outputs.length, `outputs of call "${id}" in request ${n}`).to.equal(1);
    expect(outputs[0]).to.include(text);
  },
);

Then('call {string} settled as {tool-status}', async function (this: KitWorld, id: string, status: string) {
  const call = await toolCall(this, id);
  // The seeds leave open whether a shell command exiting non-zero fails the call: a shell tool may
  // succeed and show the exit status. So a kit `fail` run as a command may settle either way.
  const eitherWay = status === 'error' && this.means.name === 'shell' && this.means.isCallOf(call, 'fail');
  expect(call.status, `status of "${id}"`).to.be.oneOf(eitherWay ? ['error', 'success'] : [status]);
});

/**
 * The control of a check about a switch: a call of a turn after the switch settles as the new
 * agent's policy has it. A runtime where it does not never applied the switch, so what the checks
 * above saw of the old agent's policy says nothing of the rule (AGT-01 judges the switch itself).
 */
Then(
  'call {string} settled as {tool-status}, or nothing above was judged',
  async function (this: KitWorld, id: string, status: string) {
    const call = await toolCall(this, id);
    if (call.status !== status)
      this.notJudged(
        `call "${id}", of a turn after the switch, settled as ${call.status}, not ${status}: the switch never applied, so the checks above show nothing`,
      );
  },
);

/**
 * The seeds say when a call asks for approval, not what a declined approval does to it: the call
 * may settle as an error the model reads, or as interrupted with the turn ended. Either way it is
 * not a success; the scenario checks that nothing ran.
 */
Then('call {string} was refused, settled as error or interrupted', async function (this: KitWorld, id: string) {
  const call = await toolCall(this, id);
  expect(call.status, `status of "${id}"`).to.be.oneOf(['error', 'interrupted']);
  this.tookReading('approval.declined', call.status);
});

/**
 * A shell tool may report a failing command as a completed call, its exit status in the output:
 * then there is no failed call whose treatment a scenario could check.
 */
Given(
  'call {string} failed, where the runtime records a failing command as a failed call',
  async function (this: KitWorld, id: string) {
    const { status } = await toolCall(this, id);
    if (status === 'error') return undefined;
    return this.notApplicable(
      `the runtime recorded call "${id}", a failing command, as ${status}, not as a failed call`,
    );
  },
);

Then(
  'request {int} shows the model the output of call {string}',
  async function (this: KitWorld, n: number, id: string) {
    const sent = request(this, n)
      .messages.filter((m) => m.role === 'tool' && m.toolCallId === id)
      .map((m) => m.text);
    expect(sent).to.deep.equal([(await toolCall(this, id)).output]);
  },
);

/**
 * The premise of a check that reads a call's output from the history for what the model saw: a
 * runtime that keeps one output and sends the model another (bounding it only in the request)
 * leaves such a check nothing to read; whether it may is TOO-13's matter, checked there.
 */
Then(
  'request {int} shows the model the output of call {string}, or nothing here is judged',
  async function (this: KitWorld, n: number, id: string) {
    const sent = request(this, n)
      .messages.filter((m) => m.role === 'tool' && m.toolCallId === id)
      .map((m) => m.text);
    const kept = (await toolCall(this, id)).output;
    if (sent.length !== 1 || sent[0] !== kept)
      throw new NothingToJudge(
        `request ${n} shows the model another output of call "${id}" than the history keeps: what the history holds is not what the model read`,
      );
  },
);

/** What a later request replays of a call, read against what an earlier one sent: no record the runtime reports in between. */
Then(
  'request {int} shows the model the output of call {string} as request {int} did',
  function (this: KitWorld, later: number, id: string, earlier: number) {
    const sentIn = (n: number) =>
      request(this, n)
        .messages.filter((m) => m.role === 'tool' && m.toolCallId === id)
        .map((m) => m.text);
    const first = sentIn(earlier);
    expect(first, `the output of call "${id}" in request ${earlier}`).to.have.length(1);
    expect(
      sentIn(later),
      `the output of call "${id}" in request ${later}, as request ${earlier} sent it`,
    ).to.deep.equal(first);
  },
);
