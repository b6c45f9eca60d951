import { Then } from '@cucumber/cucumber';
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
  // The seeds leave open whether a shell command exiting non-zero fails the call: OpenCode's bash
  // succeeds and shows the exit status. So a kit `fail` run as a command may settle either way.
  const eitherWay = status === 'error' && this.means.name === 'shell' && this.means.isCallOf(call, 'fail');
  expect(call.status, `status of "${id}"`).to.be.oneOf(eitherWay ? ['error', 'success'] : [status]);
});

Then(
  'request {int} shows the model the output of call {string}',
  async function (this: KitWorld, n: number, id: string) {
    const sent = request(this, n)
      .messages.filter((m) => m.role === 'tool' && m.toolCallId === id)
      .map((m) => m.text);
    expect(sent).to.deep.equal([(await toolCall(this, id)).output]);
  },
);
