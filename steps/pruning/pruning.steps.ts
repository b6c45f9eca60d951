import { Given, Then } from '@cucumber/cucumber';
import { expect } from 'chai';
import { textTurn } from '../../harness/provider/turns.js';
import { toolCall } from '../support/tool-calls.js';
import type { KitWorld } from '../support/world.js';
import { request, requestLabel } from '../support/requests.js';

/** What request `n` gave the model as the output of call `id`. */
function outputSent(world: KitWorld, n: number, id: string): string {
  const found = request(world, n).messages.find((message) => message.toolCallId === id);
  if (!found) throw new Error(`${requestLabel(n)} has no output of call "${id}"`);
  return found.text;
}

/** The replacement text of a pruned output is the runtime's default, declared to the kit (PRU-04). */
Then(
  'request {int} reads the output of call {string} as the declared text {string}',
  function (this: KitWorld, n: number, id: string, name: string) {
    expect(outputSent(this, n, id)).to.equal(this.declaredText(name));
  },
);

Then(
  'request {int} reads {int} characters of output for call {string}',
  function (this: KitWorld, n: number, length: number, id: string) {
    expect(outputSent(this, n, id).length, `the output of "${id}" in request ${n}`).to.equal(length);
  },
);

Then(
  'the history keeps {int} characters of output for call {string}, {pruning-mark}',
  async function (this: KitWorld, length: number, id: string, pruned: boolean) {
    const call = await toolCall(this, id);
    expect(call.output?.length, `the durable output of "${id}"`).to.equal(length);
    expect(call.pruned ?? false, `whether "${id}" is marked pruned`).to.equal(pruned);
  },
);

/**
 * `reporting no usage`: a chat-completions stream may carry none at all, and then no count is newer
 * than the last one reported. `to every later turn`: however many turns a runtime takes to get there.
 */
Given(
  /^the provider replies "([^"]*)" reporting (?:(\d+) input, (\d+) cached and (\d+) output tokens|no usage)( to every later turn)?$/,
  function (
    this: KitWorld,
    reply: string,
    input: string | null,
    cacheRead: string,
    output: string,
    every: string | null,
  ) {
    const usage =
      input === null ? null : { input: Number(input), cacheRead: Number(cacheRead), output: Number(output) };
    this.provider.enqueue({ turn: textTurn(reply, 1, { usage }), repeat: Boolean(every) });
  },
);
