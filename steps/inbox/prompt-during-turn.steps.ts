import { Then } from '@cucumber/cucumber';
import type { KitWorld } from '../support/world.js';
import { conversation } from '../support/requests.js';
import { toolCall } from '../support/tool-calls.js';

/**
 * Names the design a runtime took for a prompt admitted while a turn ran (rules/index.md,
 * `prompt.during-turn`), read off the first request that carries the prompt: the prompt the turn
 * answered is gone (cancel-and-drop), the turn's call did not complete or its result is missing
 * (cancel-and-keep), the prompt follows the call's result (steered) or the turn's last answer
 * (queued). The checks after it judge.
 */
Then(
  'the kit names what the prompt {string} did to the turn of {string} and its call {string}',
  async function (this: KitWorld, admitted: string, first: string, callId: string) {
    for (let n = 2; n <= this.provider.requests.length; n++) {
      const rows = conversation(this, n);
      // A runtime may show a steered prompt in a system row of its own: where it stands tells the design.
      const at = rows.findIndex(
        (row) => row.role !== 'assistant' && row.role !== 'tool' && row.content.includes(admitted),
      );
      if (at < 0) continue;
      if (!rows.slice(0, at).some((row) => row.role === 'user' && row.content.includes(first)))
        return this.tookDesign('prompt.during-turn', 'cancel-and-drop');
      const settled = await toolCall(this, callId).then(
        (call) => call.status === 'success',
        () => false,
      );
      // The turn's call went out without its result: the turn was cut, whatever history says of the call.
      const before = rows.slice(0, at);
      const called = before.findLastIndex((row) => row.role === 'assistant' && row.content.startsWith('calls '));
      const answered = called >= 0 && before.slice(called + 1).some((row) => row.role === 'tool');
      if (!settled || !answered) return this.tookDesign('prompt.during-turn', 'cancel-and-keep');
      return this.tookDesign('prompt.during-turn', rows[at - 1]?.role === 'tool' ? 'steered' : 'queued');
    }
    return undefined;
  },
);
