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

/** What request `n` shows the model of call `id`: its one tool message. */
function shownOf(world: KitWorld, n: number, id: string): string {
  const sent = request(world, n)
    .messages.filter((m) => m.role === 'tool' && m.toolCallId === id)
    .map((m) => m.text);
  expect(sent, `the output of call "${id}" in request ${n}`).to.have.length(1);
  return sent[0]!;
}

/**
 * What the model was shown of a produced output, as lines the tool returned (whole, or cut): what
 * a runtime adds around them (a shell's process ID, a notice naming a file unique to the call) is
 * left out, so two calls of the same output compare by what bounding kept of it. A line cut inside,
 * marked or labelled at one end ("Output: xxxx", "xxxx..."), counts by the part the tool returned.
 */
function shownAlike(world: KitWorld, n: number, id: string): string {
  const produced = world.produced.get(id);
  if (produced === undefined) throw new Error(`the scenario scripted no produce call "${id}" with text`);
  return shownOf(world, n, id)
    .split('\n')
    .map((line) => (produced.includes(line) ? line : returnedPart(produced, line)))
    .filter((line) => line.trim() !== '')
    .join('\n');
}

/** Fewer characters than this, kept of a cut line, are as likely a runtime's own words. */
const LEAST_CUT_PART = 8;

/** The longer of the longest start and the longest end of `line` that `produced` holds, if long enough to be the tool's. */
function returnedPart(produced: string, line: string): string {
  const start = line.slice(
    0,
    longestHeld(produced, (length) => line.slice(0, length), line.length),
  );
  const end = line.slice(
    line.length - longestHeld(produced, (length) => line.slice(line.length - length), line.length),
  );
  const part = end.length > start.length ? end : start;
  return part.length >= LEAST_CUT_PART ? part : '';
}

/** The greatest length below `most` whose part `produced` holds: a part held holds every shorter one. */
function longestHeld(produced: string, part: (length: number) => string, most: number): number {
  let held = 0;
  let over = most;
  while (over - held > 1) {
    const middle = Math.floor((held + over) / 2);
    if (produced.includes(part(middle))) held = middle;
    else over = middle;
  }
  return held;
}

/** Notes what the model was shown of a call, for a check after the runtime talks to another provider. */
Then('request {int} shows the model an output of call {string}', function (this: KitWorld, n: number, id: string) {
  this.outputsShown.set(id, shownAlike(this, n, id));
});

/** Two calls of the same output, shown to the model by providers of two dialects, read the same. */
Then(
  'request {int} shows the model the output of call {string} as the output of call {string} was shown',
  function (this: KitWorld, n: number, id: string, earlier: string) {
    const before = this.outputsShown.get(earlier);
    if (before === undefined) throw new Error(`no step noted what the model was shown of call "${earlier}"`);
    // Nothing of the output shown either time would compare equal and show nothing of the limit.
    if (before === '')
      return this.notJudged(`request showing call "${earlier}" showed none of the lines the tool returned`);
    expect(shownAlike(this, n, id), `the output of call "${id}" in request ${n}, as "${earlier}" was shown`).to.equal(
      before,
    );
  },
);

/** What a later request replays of a call, read against what an earlier one sent: no record the runtime reports in between. */
Then(
  'request {int} shows the model the output of call {string} as request {int} did',
  function (this: KitWorld, later: number, id: string, earlier: number) {
    const first = shownOf(this, earlier, id);
    expect(
      shownOf(this, later, id),
      `the output of call "${id}" in request ${later}, as request ${earlier} sent it`,
    ).to.equal(first);
  },
);
