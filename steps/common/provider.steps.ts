import { Given, When, Then, type DataTable } from '@cucumber/cucumber';
import { expect } from 'chai';
import { declares } from '../../harness/protocol/capabilities.js';
import type { OneInputTool } from '../support/parameter-types.js';
import { NothingToJudge } from '../../harness/report/outcome.js';
import type { KitWorld } from '../support/world.js';
import { recordingTurn, textTurn, toolCall, toolCallsTurn, type TurnExtras } from '../../harness/provider/turns.js';
import { matchRows, shownRows, type Row } from '../support/rows.js';
import { scriptCalls } from '../support/tool-calls.js';
import { conversation, conversationRows, LAST_REQUEST, request, requestLabel } from '../support/requests.js';
import { requestsWithinCommandTimeout, withinCommandTimeout } from '../support/timing.js';
import { toldAfter } from '../../harness/provider/told-after.js';

Then('{request} uses the model {string}', function (this: KitWorld, n: number, model: string) {
  expect(request(this, n).model).to.equal(model);
});

/** A reply as most scenarios script it: streamed in three pieces. */
const text = (reply: string, extras?: TurnExtras) => textTurn(reply, 3, extras);

const call = (world: KitWorld, name: string, input: Record<string, unknown>, id: string, heldEnd?: string) =>
  scriptCalls(world, [toolCall(id, name, input)], heldEnd);

Given('the provider replies {string}', function (this: KitWorld, reply: string) {
  this.provider.enqueue({ turn: text(reply) });
});

/** Whatever number of turns a runtime takes to get there, each later turn is answered alike. */
Given('the provider replies {string} to every later turn', function (this: KitWorld, reply: string) {
  this.provider.enqueue({ turn: text(reply), repeat: true });
});

Given(
  'the provider replies to {string} with {string} in {int} chunk(s)',
  function (this: KitWorld, user: string, reply: string, chunks: number) {
    this.provider.enqueue({ turn: textTurn(reply, chunks), forUserText: user });
  },
);

Given('the provider replies to {string} with {string}', function (this: KitWorld, user: string, reply: string) {
  this.provider.enqueue({ turn: text(reply), forUserText: user });
});

Given('the provider replies with the recording {string}', function (this: KitWorld, name: string) {
  this.provider.enqueue({ turn: recordingTurn(name) });
});

/** A reply the runtime waits on until a later step releases it; `to "<user text>"` as for `replies to`. */
Given(
  /^the provider holds its reply(?: to "([^"]*)" with)? "([^"]*)" until "([^"]*)" is released$/,
  function (this: KitWorld, user: string | null, reply: string, hold: string) {
    this.provider.enqueue({ turn: text(reply), ...(user === null ? {} : { forUserText: user }), hold });
  },
);

/** A reply whose text streams at once while its end (finish reason, closing frames) waits for a later step. */
Given(
  'the provider streams its reply {string} but holds its end until {string} is released',
  function (this: KitWorld, reply: string, hold: string) {
    this.provider.enqueue({ turn: text(reply), hold, holdEnd: true });
  },
);

Given('the provider calls gate {string}', function (this: KitWorld, gate: string) {
  return call(this, 'gate', { name: gate }, `call_gate_${gate}`);
});

/** `echo "hi"`: the tool's one input, under the call ID `call_echo`. */
Given(
  'the provider calls {one-input-tool} {string}',
  function (this: KitWorld, { name, input }: OneInputTool, value: string) {
    return call(this, name, { [input]: value }, `call_${name}`);
  },
);

/** The call streams at once; the turn's end (finish reason, closing frames) waits for a later step. */
Given(
  'the provider calls {one-input-tool} {string} but holds its end until {string} is released',
  function (this: KitWorld, { name, input }: OneInputTool, value: string, hold: string) {
    return call(this, name, { [input]: value }, `call_${name}`, hold);
  },
);

/** Input text that need not decode: only the kit's own tools take it as it is. */
Given(
  'the provider calls {word} as {string} with the input text {string}',
  function (this: KitWorld, name: string, id: string, rawInput: string) {
    return scriptCalls(this, [toolCall(id, name, {}, { rawInput })]);
  },
);

Given('the provider calls echo {int} times', function (this: KitWorld, times: number) {
  for (let i = 1; i <= times; i++) if (call(this, 'echo', { text: `echo ${i}` }, `call_${i}`)) return 'skipped';
  return undefined;
});

Given('the provider calls the tools:', function (this: KitWorld, table: DataTable) {
  const calls = table.hashes().map((row) => toolCall(row.id!, row.name!, JSON.parse(row.input!)));
  return scriptCalls(this, calls);
});

/**
 * The runtime sends the request it was just given cause for within one command's time; one that
 * never sends it fails here, not at the scenario's own timeout.
 */
When('the provider has received {int} request(s)', function (this: KitWorld, count: number) {
  return requestsWithinCommandTimeout(this, count, 'the runtime did not send the request it was given cause for');
});

/** The runtime read the streamed part of the reply held at its end: it is inside that answer now. */
When('the runtime has read the held reply {string} up to its end', async function (this: KitWorld, hold: string) {
  try {
    await this.driver.time.measure('other awaited states', () =>
      withinCommandTimeout(this.provider.holdAwaited(), `the runtime reading the reply held as "${hold}"`),
    );
  } catch {
    expect.fail(`the runtime did not read the streamed part of the reply held as "${hold}"`);
  }
  if (!this.provider.awaitedHolds.has(hold))
    expect.fail(
      `the runtime waits on ${[...this.provider.awaitedHolds].join(', ')}, not on the reply held as "${hold}"`,
    );
});

When('the held reply {string} is released', function (this: KitWorld, hold: string) {
  this.provider.release(hold);
});

Then(
  /^the provider received (at least |at most )?(\d+) requests?$/,
  function (this: KitWorld, bound: string | null, count: string) {
    const received = expect(this.provider.requests.length, 'provider requests');
    if (bound === 'at least ') received.to.be.at.least(Number(count));
    else if (bound === 'at most ') received.to.be.at.most(Number(count));
    else received.to.equal(Number(count));
  },
);

Then('{int} scripted provider turn(s) is/are left unused', function (this: KitWorld, count: number) {
  expect(this.provider.unconsumed).to.equal(count);
});

Then('the provider never had more than {int} response(s) open', function (this: KitWorld, count: number) {
  expect(this.provider.maxInFlight).to.be.at.most(count);
});

/** Whether request `n` holds a summary the provider was scripted to write. */
function holdsSummary(world: KitWorld, n: number): boolean {
  const summaries = [...world.summariesScripted];
  return request(world, n).messages.some((message) => summaries.some((summary) => message.text.includes(summary)));
}

/**
 * A check of what a request shows after an earlier one (a compaction's summary in the turn after
 * it) judges nothing where the runtime sent it before the earlier one was answered: it did not
 * wait for that answer, which is another rule's matter. An answer streamed at once may end before
 * the later request arrives; a summary that reaches the model only in a request after this one
 * shows the same: the compaction was applied after the turn went out.
 */
Then(
  'request {int} was sent once request {int} was answered, or nothing here is judged',
  function (this: KitWorld, later: number, earlier: number) {
    if (request(this, later).openAtArrival?.includes(earlier))
      throw new NothingToJudge(
        `${requestLabel(later)} was sent while ${requestLabel(earlier)} was still being answered: the runtime did not wait for that answer`,
      );
    const summaryAt = this.provider.requests.slice(later).find(({ index }) => holdsSummary(this, index))?.index;
    if (!holdsSummary(this, later) && summaryAt !== undefined)
      throw new NothingToJudge(
        `${requestLabel(later)} holds no summary and request ${summaryAt} does: the runtime applied its compaction only after it sent ${requestLabel(later)}`,
      );
  },
);

/**
 * A runtime without the kit's context sources announces context of its own (its environment, the
 * date) in system messages at a boundary, after its input as `toldAfter` allows: a table that names
 * no system message does not count them.
 */
function withoutOwnAnnouncements(world: KitWorld, rows: Row[], expected: Row[]): Row[] {
  if (declares(world.driver.description, 'kit-sources') || expected.some((row) => row.role === 'system')) return rows;
  return rows.filter((row) => row.role !== 'system');
}

Then('{request} ends with:', function (this: KitWorld, n: number, table: DataTable) {
  const expected = table.hashes() as unknown as Row[];
  const actual = withoutOwnAnnouncements(this, conversation(this, n), expected).slice(-expected.length);
  expect(matchRows(actual, expected, this.means)).to.deep.equal(shownRows(expected, this.means));
});

/**
 * The texts reach the model after the last message holding `after` (a tool result, say), each once
 * and in the table's order, in whatever role and wrapping the runtime gives them: their order and
 * boundary, not their form, which another check judges.
 */
function toldInOrder(world: KitWorld, n: number, after: string, table: DataTable): void {
  const messages = conversation(world, n).map((row) => row.content);
  const texts = table.raw().map(([text]) => text!);
  const problem = toldAfter(messages, after, texts, requestLabel(n));
  if (problem) expect.fail(problem);
}

Then(
  '{request} tells the model, after {string}, in this order:',
  function (this: KitWorld, n: number, after: string, table: DataTable) {
    toldInOrder(this, n, after, table);
  },
);

/**
 * Where texts stand after a tool's result, whatever the runtime made that result say (the tool's
 * output, or a note of its own where it cut the call short): the result's text is the mark.
 */
Then(
  '{request} tells the model, after the result of call {string}, in this order:',
  function (this: KitWorld, n: number, callId: string, table: DataTable) {
    const result = request(this, n).messages.findLast((m) => m.role === 'tool' && m.toolCallId === callId);
    expect(result?.text, `the result of call "${callId}" in ${requestLabel(n)}`)
      .to.be.a('string')
      .and.not.equal('');
    toldInOrder(this, n, result!.text, table);
  },
);

/**
 * The same check of where texts stand, for a rule about their place only: a request that tells
 * none of them anywhere shows nothing of it (whether they are told at all is the check above's).
 */
Then(
  '{request} tells the model, after {string}, in this order, or nothing above was judged:',
  function (this: KitWorld, n: number, after: string, table: DataTable) {
    const texts = table.raw().map(([text]) => text!);
    if (!conversation(this, n).some((row) => texts.some((text) => row.content.includes(text)))) {
      this.notJudged(
        `${requestLabel(n)} tells none of ${texts.map((text) => `"${text}"`).join(', ')}: where they stand shows nothing`,
      );
      return;
    }
    toldInOrder(this, n, after, table);
  },
);

/** Request `n`'s body as sent, and `text` as it stands in it (JSON-escaped: quotes, line breaks). */
const bodyOf = (world: KitWorld, n: number) => JSON.stringify(request(world, n).body);
const asSent = (text: string) => JSON.stringify(text).slice(1, -1);

Then('{request} does not contain {string} anywhere', function (this: KitWorld, n: number, text: string) {
  expect(bodyOf(this, n), `the body of ${requestLabel(n)}`).to.not.include(asSent(text));
});

Then(
  'request {int} does not contain {string} anywhere, or nothing here is judged',
  function (this: KitWorld, n: number, text: string) {
    if (bodyOf(this, n).includes(asSent(text)))
      throw new NothingToJudge(`request ${n} contains "${text}": the control the scenario needs does not hold`);
  },
);

Then('{request} contains {string} somewhere', function (this: KitWorld, n: number, text: string) {
  expect(bodyOf(this, n), `the body of ${requestLabel(n)}`).to.include(asSent(text));
});

/** Texts request `n` carries in this order wherever it puts them: its system field, a message or a tool's description. */
Then('request {int} contains somewhere, in this order:', function (this: KitWorld, n: number, table: DataTable) {
  const body = bodyOf(this, n);
  let from = 0;
  for (const [text] of table.raw()) {
    const at = body.indexOf(asSent(text!), from);
    if (at < 0)
      expect.fail(
        `request ${n} does not carry "${text}"${from > 0 ? ' after the texts above it' : ''}${body.includes(asSent(text!)) ? ' (it carries it before them)' : ''}`,
      );
    from = at + asSent(text!).length;
  }
});

/** A retry sends the same request again; a request rebuilt after it (a summary, say) is not one. */
Then('request {int} was not sent again', function (this: KitWorld, n: number) {
  const sent = JSON.stringify(request(this, n).body);
  this.provider.requests.slice(n).forEach((later, i) => {
    expect(JSON.stringify(later.body) === sent, `request ${n + i + 1} repeats request ${n}`).to.equal(false);
  });
});

Then('no request after request {int} contains {string}', function (this: KitWorld, n: number, text: string) {
  this.provider.requests.slice(n).forEach((later, i) => {
    expect(JSON.stringify(later.body), `the body of request ${n + i + 1}`).to.not.include(text);
  });
});

Then('{request} has the messages:', function (this: KitWorld, n: number, table: DataTable) {
  const expected = table.hashes() as unknown as Row[];
  expect(matchRows(conversationRows(this, n), expected, this.means)).to.deep.equal(shownRows(expected, this.means));
});

Then('{request} has no user message {string}', function (this: KitWorld, n: number, userText: string) {
  expect(conversation(this, n)).to.not.deep.include({ role: 'user', content: userText });
});

/**
 * The premise of a scenario about prompts promoted one at a time: a runtime that promoted a later
 * queued prompt into the same request (INB-11's matter) leaves nothing of it to judge here.
 */
Then(
  '{request} does not carry {string}, or nothing here is judged',
  function (this: KitWorld, n: number, userText: string) {
    if (conversation(this, n).some((row) => row.role === 'user' && row.content.includes(userText)))
      throw new NothingToJudge(
        `${requestLabel(n)} carries "${userText}" with the prompt before it: the runtime promoted the queued prompts together, which INB-11 is about`,
      );
  },
);

Then(
  '{request} has {int} user message(s) {string}',
  function (this: KitWorld, n: number, count: number, userText: string) {
    const found = conversation(this, n).filter((row) => row.role === 'user' && row.content === userText);
    expect(found.length, `user messages "${userText}" in ${requestLabel(n)}`).to.equal(count);
  },
);

/** Provider-native reasoning ahead of a reply: under a given signature, or the kit's streamed in chunks. */
Given(
  /^the provider replies "([^"]*)" after reasoning "([^"]*)" (?:signed "([^"]*)"|in (\d+) chunks?)$/,
  function (this: KitWorld, reply: string, reasoning: string, signature: string | null, chunks: string | null) {
    const streamed = chunks === null ? {} : { chunks: Number(chunks) };
    this.provider.enqueue({
      turn: text(reply, { reasoning: { text: reasoning, signature: signature ?? 'kit-signature', ...streamed } }),
    });
  },
);

Given(
  'the provider calls echo {string} with its input in {int} chunk(s)',
  function (this: KitWorld, echoed: string, inputChunks: number) {
    this.provider.enqueue({
      turn: toolCallsTurn([toolCall('call_chunked', 'echo', { text: echoed }, { inputChunks })]),
    });
  },
);

/** The provider-native reasoning request `n` carries: one piece, replayed as it came, or none. */
Then(
  /^(request \d+|the last request) (?:replays the reasoning "([^"]*)" signed "([^"]*)"|carries no provider-native reasoning)$/,
  function (this: KitWorld, which: string, reasoning: string | null, signature: string) {
    const n = which === 'the last request' ? LAST_REQUEST : Number(which.slice('request '.length));
    // The Gemini API takes a thought back by its signature: the thought's text need not go with it.
    const bySignature = this.provider.dialect.name === 'gemini';
    expect(
      request(this, n)
        .messages.map((m) => m.reasoning)
        .filter(Boolean)
        .map((r) => (bySignature && r!.text === '' && r!.signature === signature ? { ...r, text: reasoning } : r)),
      `the provider-native reasoning of ${requestLabel(n)}`,
    ).to.deep.equal(reasoning === null ? [] : [{ text: reasoning, signature }]);
  },
);

Then('request {int} has assistant text containing {string}', function (this: KitWorld, n: number, fragment: string) {
  const texts = request(this, n)
    .messages.filter((m) => m.role === 'assistant')
    .map((m) => m.text);
  expect(
    texts.some((t) => t.includes(fragment)),
    `assistant texts ${JSON.stringify(texts)}`,
  ).to.equal(true);
});
