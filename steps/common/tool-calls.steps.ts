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
  expect((await toolCall(this, id)).status, `status of "${id}"`).to.equal(status);
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
