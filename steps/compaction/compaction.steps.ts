import { Given, When, Then, type DataTable } from '@cucumber/cucumber';
import { expect } from 'chai';
import { NothingToJudge, SuiteDefect } from '../../harness/report/outcome.js';
import { errorTurn, textTurn, recordingTurn } from '../../harness/provider/turns.js';
import { reportedInputTokens } from '../../harness/provider/scripted-turn.js';
import { sameRequestKey, type ModelVisibleMessage } from '../../harness/provider/captured-request.js';
import { prose } from '../../harness/means/prose.js';
import type { Mentioned } from '../support/parameter-types.js';
import type { KitWorld } from '../support/world.js';
import { LAST_REQUEST, request, requestLabel } from '../support/requests.js';
import { compactionSizes, declaredBudget } from '../support/compaction-sizes.js';
import { settingKeepingPrompts } from '../support/restart.js';
import type { CommandRequest } from '../../harness/protocol/protocol.js';

/** Sets the compaction budget, checking it left each session's prompts durable. */
const configureCompaction = (world: KitWorld, budget: Omit<CommandRequest<'compaction.configure'>, 'cmd'>) =>
  settingKeepingPrompts(world, 'the compaction budget', () => world.driver.call('compaction.configure', budget));

/** A summary in the form the runtime declared it takes one in, if any: the seeds fix none. */
function summaryTurn(world: KitWorld, summary: string, chunks: number) {
  const form = world.driver.description.texts['compaction.summary-form'] ?? '{summary}';
  world.summariesScripted.add(summary);
  return {
    turn: textTurn(
      form.replace('{summary}', () => summary),
      chunks,
    ),
    summary: true,
  };
}

/**
 * A stored summary as the summary it holds: the text the model wrote, in the form the runtime
 * declared it asks for, may stand among words of the runtime's own (a preamble, a handoff to the
 * next turn); what it holds must still be the whole summary, once.
 */
function storedSummary(world: KitWorld, stored: string, expected: string | undefined): string {
  if (expected === undefined) return stored;
  const form = world.driver.description.texts['compaction.summary-form'] ?? '{summary}';
  const written = [expected, form.replace('{summary}', () => expected).trim()];
  return written.some((summary) => stored.split(summary).length === 2) ? expected : stored;
}

Given('the provider summarizes with {string}', function (this: KitWorld, summary: string) {
  this.provider.enqueue(summaryTurn(this, summary, 2));
});

/** A summary request refused: where the provider tells summary requests from turns, a turn sent beside it is not. */
Given('the provider refuses the summary request with status {int}', function (this: KitWorld, status: number) {
  this.provider.enqueue({ turn: errorTurn(status), summary: true });
});

/**
 * Summaries answer summary requests and the other answers turns, each in their order, wherever the
 * runtime asks for its summary: before the turn it estimated over budget, or after the step whose
 * reported usage overflowed (the seeds of the continuation and sol designs do not fix when). A
 * summary request holds the compaction prompt the runtime declared; without one, answers go in order.
 */
Given('the provider tells summary requests from turns', function (this: KitWorld) {
  const prompt = this.driver.description.texts['compaction.prompt'];
  if (prompt === undefined) return;
  this.provider.summaryRequest = (request) =>
    request.messages.findLast((message) => message.role === 'user')?.text.includes(prompt) ?? false;
});

When('the user asks for a compaction', async function (this: KitWorld) {
  await this.driver.call('compaction.request', { sessionId: this.session().id });
});

/** Every compaction the runtime reports (a self-reported view); `tokensFreed` only where the table names it. */
Then("the session's compactions are:", async function (this: KitWorld, table: DataTable) {
  const expected = table.hashes();
  const named = expected.some((row) => 'tokensFreed' in row);
  const { compactions } = await this.driver.call('compactions', { sessionId: this.session().id });
  const reported = compactions.map(({ tokensFreed, ...rest }, i) => ({
    ...rest,
    ...(rest.summary === undefined ? {} : { summary: storedSummary(this, rest.summary, expected[i]?.summary) }),
    ...(named && tokensFreed !== undefined ? { tokensFreed: String(tokensFreed) } : {}),
  }));
  expect(reported).to.deep.equal(expected);
});

Then(
  '{request} {mention} {mentioned} in its conversation',
  function (this: KitWorld, n: number, mentions: boolean, { text, what }: Mentioned) {
    const mentioned = request(this, n).messages.some((m) => m.text.includes(text));
    expect(mentioned, `whether a message of ${requestLabel(n)} mentions ${what}`).to.equal(mentions);
  },
);

/**
 * What a recent context reaching back to `older` holds: how far back it reaches is the runtime's
 * (its token bound), so a recent context that does not reach `older` could not have failed this
 * check, and the scenario claims nothing of it.
 */
Then(
  '{request} mentions {mentioned} in its conversation where it mentions {string}',
  function (this: KitWorld, n: number, { text, what }: Mentioned, older: string) {
    const messages = request(this, n).messages;
    if (!messages.some((m) => m.text.includes(older))) {
      this.notJudged(`${requestLabel(n)} does not reach back to "${older}": what it keeps of ${what} is not shown`);
      return;
    }
    expect(
      messages.some((m) => m.text.includes(text)),
      `whether a message of ${requestLabel(n)}, which mentions "${older}", mentions ${what}`,
    ).to.equal(true);
  },
);

/**
 * The premise of a check of what crosses a compaction: the request after it carries its summary.
 * A runtime that sent the turn before its summary was done (or cut the history another way) shows
 * nothing of what its compaction keeps there.
 */
Then(
  '{request} mentions {string} in its conversation, or nothing here is judged',
  function (this: KitWorld, n: number, text: string) {
    if (!request(this, n).messages.some((m) => m.text.includes(text)))
      throw new NothingToJudge(`no message of ${requestLabel(n)} mentions "${text}", which the checks after it need`);
  },
);

/**
 * A summary request carries the messages a compaction folds. A runtime that keeps the newest
 * messages verbatim after a compaction (its recent context) folds none of those: when the request
 * after the compaction carries `text` as a message of its own, nothing here is judged.
 */
Then(
  'request {int} mentions {string} in its conversation, or request {int} keeps it verbatim',
  function (this: KitWorld, n: number, text: string, after: number) {
    if (request(this, n).messages.some((m) => m.text.includes(text))) return;
    if (request(this, after).messages.some((m) => m.text.trim() === text))
      throw new NothingToJudge(
        `${requestLabel(after)} keeps "${text}" verbatim after the compaction: the runtime folded nothing of it`,
      );
    expect.fail(`no message of ${requestLabel(n)} mentions "${text}", and ${requestLabel(after)} does not keep it`);
  },
);

/**
 * The newest message a compaction may fold: a summary request that leaves it out breaks CMP-08,
 * and a runtime keeping it as its recent context, which folds it later, does not. The checks
 * beside it still judge the older messages.
 */
Then(
  'request {int} mentions {string} in its conversation, unless request {int} keeps it verbatim',
  function (this: KitWorld, n: number, text: string, after: number) {
    if (request(this, after).messages.some((m) => m.text.trim() === text)) return;
    if (!request(this, n).messages.some((m) => m.text.includes(text)))
      expect.fail(`no message of ${requestLabel(n)} mentions "${text}", and ${requestLabel(after)} does not keep it`);
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
  'the conversation of {request} starts with a message mentioning {string}',
  function (this: KitWorld, n: number, text: string) {
    const [first] = checkpointFirst(this, n);
    expect(first?.text ?? '', `the first message of request ${n}`).to.include(text);
  },
);

Then('the history still holds the system message {string}', async function (this: KitWorld, text: string) {
  const held = (await this.driver.history(this.session().id)).flatMap((m) => (m.role === 'system' ? [m.text] : []));
  expect(held).to.include(text);
});

/**
 * A window stated in the scenario is the room for its conversation: the runtime's own weight (its
 * declared `requestOverheadTokens`) comes on top, as it does on a conversation brought to a size.
 */
function ownWeight(world: KitWorld): number {
  return world.driver.description.limits?.requestOverheadTokens ?? 0;
}

/** The budget a scenario states, with what else it sets beside it (a compaction model, a switch, a replacement text). */
function configureStated(
  world: KitWorld,
  contextWindow: number,
  outputAllowance: number,
  buffer: number,
  extra: Record<string, unknown> = {},
): Promise<unknown> {
  return configureCompaction(world, {
    contextWindow: contextWindow + ownWeight(world),
    outputAllowance,
    buffer,
    ...extra,
  });
}

Given(
  'the context window is {int} tokens with an output allowance of {int} and a compaction buffer of {int}',
  async function (this: KitWorld, contextWindow: number, outputAllowance: number, buffer: number) {
    await configureStated(this, contextWindow, outputAllowance, buffer);
  },
);

Given(
  "the context window is {int} tokens with an output allowance of {int} and a compaction buffer of {int}, the compaction agent's model being {string}",
  async function (this: KitWorld, contextWindow: number, outputAllowance: number, buffer: number, model: string) {
    await configureStated(this, contextWindow, outputAllowance, buffer, { model });
  },
);

Given(
  'the context window is {int} tokens with an output allowance of {int} and a compaction buffer of {int}, with {budget-switch} {on-off}',
  async function (
    this: KitWorld,
    contextWindow: number,
    outputAllowance: number,
    buffer: number,
    name: 'auto' | 'prune',
    on: boolean,
  ) {
    await configureStated(this, contextWindow, outputAllowance, buffer, { [name]: on });
  },
);

/** Profile sol: pruned content reads as the scenario's template (`{type}`, `{mimeType}`, `{filename}` filled in). */
Given(
  'the context window is {int} tokens with an output allowance of {int} and a compaction buffer of {int}, pruned content reading as {string}',
  async function (this: KitWorld, contextWindow: number, outputAllowance: number, buffer: number, template: string) {
    await configureStated(this, contextWindow, outputAllowance, buffer, { prunedMessage: template });
  },
);

Given('the provider replies with {prose}', function (this: KitWorld, length: number) {
  this.provider.enqueue({ turn: textTurn(prose(length), 4) });
});

Given(
  'the provider replies with {prose} after reasoning {string} signed {string}',
  function (this: KitWorld, length: number, reasoning: string, signature: string) {
    this.provider.enqueue({ turn: textTurn(prose(length), 4, { reasoning: { text: reasoning, signature } }) });
  },
);

/** Sized when the request arrives: the runtime's own instructions and tools count towards it. */
Given(
  'the provider replies with prose that brings the conversation to {int} tokens',
  function (this: KitWorld, tokens: number) {
    this.provider.enqueue({ turn: { ...textTurn(prose(1000), 4), fillTo: tokens + ownWeight(this) } });
  },
);

/** The budget of `compactionSizes`, for every model or with one model's window `factor` times as large. */
async function configureSizes(world: KitWorld, factor = 1, model?: string, modelFactor = factor): Promise<void> {
  const sizes = compactionSizes(world.driver.description);
  const { contextWindow, outputAllowance, buffer } = sizes;
  await configureCompaction(world, {
    contextWindow: contextWindow * factor,
    outputAllowance,
    buffer,
    ...(model === undefined ? {} : { modelWindows: { [model]: contextWindow * modelFactor } }),
  });
  world.sizedFor = sizes;
}

/**
 * The budget one long reply overflows, for every model, for one model only, or for every model but
 * one: a window ten times as large holds the long reply and everything around it.
 */
Given(
  /^the context budget is sized so that one long reply overflows it(?:, (for|except for) the model "([^"]*)"(?: only)?)?$/,
  function (this: KitWorld, scope?: 'for' | 'except for', model?: string) {
    // An optional group that did not match arrives as null.
    if (!scope) return configureSizes(this);
    return scope === 'for' ? configureSizes(this, 10, model, 1) : configureSizes(this, 1, model, 10);
  },
);

/**
 * The budget falls a quarter into the tool definitions request `n` advertised, into those of the
 * tools the scenario contributed, or into the tool results its history carries (characters / 4, as
 * the request went on the wire): the next request, a few words longer, fits only if those are left
 * out of the estimate. The window keeps room for a summary's output beside it.
 */
When(
  /^the context budget is sized to hold request (\d+) only without its (tool definitions|contributed tool definitions|tool results)$/,
  async function (this: KitWorld, n: string, part: string) {
    const sent = request(this, Number(n));
    const body = sent.body as { tools?: unknown[] };
    let characters: number;
    if (part === 'tool results') {
      characters = sent.messages.filter((m) => m.role === 'tool').reduce((sum, m) => sum + m.text.length, 0);
    } else {
      const counted = (body.tools ?? []).filter(
        (tool) =>
          part === 'tool definitions' ||
          [...this.contributedTools].some((name) => JSON.stringify(tool).includes(`"${name}"`)),
      );
      characters = counted.length ? JSON.stringify(counted).length : 0;
    }
    const tokens = characters / 4;
    if (tokens < 200) return this.notApplicable(`request ${n} carries too little of its ${part} to size a budget by`);
    await configureBudget(this, Math.round(JSON.stringify(body).length / 4 - tokens / 4));
    return undefined;
  },
);

/**
 * The budget holds twice what request `n` weighed on the wire (characters / 4), with room for a
 * summary's output beside it: a runtime that weighs its requests somewhat otherwise still finds a
 * request like it within budget, and one carrying several times its tool results over it.
 */
Given('the context budget is sized to hold request {int} twice', async function (this: KitWorld, n: number) {
  // A conversation within the recent context the runtime keeps verbatim leaves it nothing older to fold.
  const recent = this.driver.description.limits?.recentContextTokens;
  const conversation = Math.round(request(this, n).messages.reduce((sum, m) => sum + m.text.length, 0) / 4);
  if (recent !== undefined && recent >= conversation)
    throw new NothingToJudge(
      `the runtime keeps ${recent} tokens of recent context verbatim, more than the ${conversation} of the conversation before this turn: nothing older to fold`,
    );
  await configureBudget(this, Math.round((2 * JSON.stringify(request(this, n).body).length) / 4));
});

/**
 * A budget of `budget` tokens, with room beside it for a summary's output: the reserve the runtime
 * declares it keeps whatever it is given (`compactionBuffer`), at least 4000. A window below the
 * least the runtime compacts in cannot be set, and says nothing of the rule.
 */
async function configureBudget(world: KitWorld, budget: number): Promise<void> {
  const limits = world.driver.description.limits ?? {};
  const reserve = Math.max(4_000, limits.compactionBuffer ?? 0);
  if (limits.leastContextWindow !== undefined && budget + reserve < limits.leastContextWindow)
    throw new NothingToJudge(
      `the window this scenario needs, ${budget + reserve} tokens, is below the least the runtime compacts in (${limits.leastContextWindow})`,
    );
  await configureCompaction(world, {
    contextWindow: budget + reserve,
    outputAllowance: reserve,
    buffer: reserve,
  });
}

When('the context window grows tenfold', function (this: KitWorld) {
  return configureSizes(this, 10);
});

/** The runtime's own budget where it declares one that holds the long reply twice; otherwise ten times the sized window. */
Given('the context budget holds a long reply', async function (this: KitWorld) {
  const own = declaredBudget(this.driver.description, this.provider.model);
  if (own !== undefined && own >= compactionSizes(this.driver.description).longReply / 2) return;
  await configureSizes(this, 10);
});

/** The prose the provider replied: an assistant message of its length. */
Then('the history still holds {prose}', async function (this: KitWorld, length: number) {
  const replies = (await this.driver.history(this.session().id)).flatMap((m) =>
    m.role === 'assistant' ? [m.text.length] : [],
  );
  expect(replies, 'the lengths of the assistant messages in the history').to.include(length);
});

/**
 * A request's length on the wire: below a number of characters, or (what the checkpoint keeps
 * verbatim is bounded) with most of the long reply gone from an earlier request.
 */
Then(
  /^(request \d+|the last request) is shorter than (?:(\d+) characters|request (\d+) by at least half the long reply)$/,
  function (this: KitWorld, words: string, characters: string | null, earlier: string | null) {
    const n = words === 'the last request' ? LAST_REQUEST : Number(words.slice('request '.length));
    const length = (k: number) => JSON.stringify(request(this, k).body).length;
    if (characters !== null) {
      expect(length(n), `the characters of ${requestLabel(n)}`).to.be.below(Number(characters));
      return;
    }
    const half = compactionSizes(this.driver.description).longReply / 2;
    expect(
      length(n),
      `${requestLabel(n)} against request ${earlier} (${length(Number(earlier))} characters)`,
    ).to.be.below(length(Number(earlier)) - half);
  },
);

/**
 * The turn that was pending when the compaction ran: its input is the model's last word, either as
 * a user message of its own after the checkpoint or inside the checkpoint as the newest of the
 * prompts it states (003 lets the checkpoint stand for the whole transcript, the promoted input
 * included; the summary may stand before or after the prompts it keeps). System messages the
 * runtime adds after it (MCS-01 puts them there) do not count.
 */
Then('{request} ends with the pending input {string}', function (this: KitWorld, n: number, input: string) {
  expectPendingInputLast(this, n, input);
});

/**
 * The premise of a check of what the turn after a compaction carries: the last request is that
 * turn. A runtime that sent another request after it (a summary written after the turn) shows
 * nothing there of what its compaction keeps.
 */
Then(
  '{request} ends with the pending input {string}, or nothing here is judged',
  function (this: KitWorld, n: number, input: string) {
    try {
      expectPendingInputLast(this, n, input);
    } catch (error) {
      throw new NothingToJudge(
        `${requestLabel(n)} is not the turn "${input}": ${error instanceof Error ? error.message.split('\n')[0] : error}`,
      );
    }
  },
);

function expectPendingInputLast(world: KitWorld, n: number, input: string): void {
  const last = request(world, n).messages.findLast((message) => message.role !== 'system');
  expect(last?.role, `the last message of ${requestLabel(n)}`).to.equal('user');
  const text = last!.text;
  world.tookReading('compaction.pending-input', text === input ? 'own-message' : 'in-checkpoint');
  if (text === input) return;
  const serialized = text.replace(/<\/?[\w-]+>/g, '');
  const at = serialized.lastIndexOf(input);
  expect(
    at >= 0,
    `whether the last message of ${requestLabel(n)} states "${input}" (it ends ${JSON.stringify(text.slice(-200))})`,
  ).to.equal(true);
  let after = serialized.slice(at + input.length);
  for (const summary of world.summariesScripted) after = after.split(summary).join('');
  // A prompt on a line of its own, or after a role label ("user: one"), stated after the pending one.
  const later = [...world.promptsAdmitted].filter(
    (prompt) =>
      prompt !== input &&
      after.split('\n').some((line) => line.trim() === prompt || line.trim().endsWith(`: ${prompt}`)),
  );
  expect(
    later,
    `the prompts the last message of ${requestLabel(n)} states after "${input}", its pending input: ${text.slice(-200)}`,
  ).to.deep.equal([]);
}

/**
 * Whether request `n` ran the pending turn `input` itself, with no compaction attempted before it:
 * its last message other than the runtime's own system notes after the prompt is that input, as
 * the user's own text where the runtime opens the message with a note in its declared wrapper
 * (the time the prompt was sent).
 */
function ranTurnUncompacted(world: KitWorld, n: number, input: string): boolean {
  const text = request(world, n).messages.findLast((message) => message.role !== 'system')?.text;
  if (text === undefined) return false;
  return (world.systemFallback()?.split(text)?.user ?? text).trim() === input;
}

/**
 * A compaction scenario's premise, checked as CMP-02's where that rule is the scenario's: request
 * `n` asked for a summary, not the pending turn `input` with no compaction before it.
 */
Then(
  'request {int} asked for a summary rather than the turn {string}',
  function (this: KitWorld, n: number, input: string) {
    expect(
      ranTurnUncompacted(this, n, input) && !compactedBeside(this, n, input),
      `whether ${requestLabel(n)} ran the turn "${input}" itself, with no compaction attempted before it`,
    ).to.equal(false);
  },
);

/**
 * Whether the runtime asked for its summary while request `n`, the turn, was still unanswered: it
 * did weigh the request over budget and attempt a compaction, beside the turn rather than before
 * it (CMP-02's to judge, by what the turn carried).
 */
function compactedBeside(world: KitWorld, n: number, input: string): boolean {
  return world.provider.requests
    .slice(n)
    .some((later, i) => later.openAtArrival?.includes(n) && !ranTurnUncompacted(world, n + i + 1, input));
}

/**
 * A rule about what a compaction does is judged only where the runtime attempted one: request `n`
 * ran the pending turn itself, with no compaction before it, when its last message is that turn's
 * input. Whether it should have compacted is CMP-02's, judged in its own scenarios.
 */
Then(
  'request {int} asked for a summary rather than the turn {string}, or nothing here is judged',
  function (this: KitWorld, n: number, input: string) {
    if (ranTurnUncompacted(this, n, input))
      throw new NothingToJudge(
        `${requestLabel(n)} ran the turn "${input}" itself: the runtime attempted no compaction before it`,
      );
  },
);

/**
 * After the compaction request `n` failed, the pending turn `input` either did not run, or ran once
 * with the history the compaction would have folded (the later requests show which boundary held).
 * Other requests after it (the runtime trying the compaction again) are no run of the turn.
 */
Then(
  'after the failed compaction in request {int}, the pending turn {string} stopped or ran once',
  function (this: KitWorld, n: number, input: string) {
    const runs = this.provider.requests.slice(n).filter(({ messages }) => messages.at(-1)?.text === input);
    expect(runs.length, `requests after request ${n} that run the turn "${input}"`).to.be.at.most(1);
    this.tookReading('compaction.failed-turn', runs.length === 0 ? 'stops' : 'runs');
  },
);

Then(
  'every request after request {int} {mention} {string} in its conversation',
  function (this: KitWorld, n: number, mentions: boolean, text: string) {
    // A request sent again as it was (the failed attempt tried once more) is no later boundary.
    const again = sameRequestKey(request(this, n));
    const later = this.provider.requests.slice(n).filter((sent) => sameRequestKey(sent) !== again);
    expect(later.length, `requests after request ${n}`).to.be.above(0);
    for (const { index } of later) {
      const mentioned = request(this, index).messages.some((m) => m.text.includes(text));
      expect(mentioned, `whether a message of request ${index} mentions "${text}"`).to.equal(mentions);
    }
  },
);

Given(
  'the provider summarizes with {string} in {int} chunk(s)',
  function (this: KitWorld, summary: string, chunks: number) {
    this.provider.enqueue(summaryTurn(this, summary, chunks));
  },
);

When('the user steers {int} characters of prose', async function (this: KitWorld, length: number) {
  this.receipt = await this.driver.admit(this.session().id, prose(length), { delivery: 'steer' });
});

/**
 * A prompt as long as the long reply the scenario sized: over the budget, yet with room in the
 * window for a summary of it, so a runtime that would fold the pending prompt itself can.
 */
When('the user steers prose as long as the long reply', async function (this: KitWorld) {
  const { longReply } = this.sizedFor ?? compactionSizes(this.driver.description);
  this.receipt = await this.driver.admit(this.session().id, prose(longReply), { delivery: 'steer' });
});

async function completedCompactions(world: KitWorld): Promise<number> {
  const { compactions } = await world.driver.call('compactions', { sessionId: world.session().id });
  return compactions.filter((c) => c.status === 'completed').length;
}

Then('the session has {int} completed compaction(s)', async function (this: KitWorld, count: number) {
  expect(await completedCompactions(this), 'completed compactions').to.equal(count);
});

/**
 * A request still over the budget after a compaction (the runtime kept the long reply verbatim,
 * what CMP-04 bounds, or its own weight fills the budget) calls for another compaction: the check
 * of one the request as it now is does not call for has nothing to tell apart. The request is
 * weighed as the kit's provider reports its usage.
 */
Then(
  'the request of the turn {string} is within the budget, or nothing here is judged',
  function (this: KitWorld, input: string) {
    const sizes = this.sizedFor ?? compactionSizes(this.driver.description);
    const budget = sizes.contextWindow - Math.max(sizes.outputAllowance, sizes.buffer);
    const at = this.provider.requests.findLastIndex(
      (r) => r.messages.findLast((m) => m.role === 'user')?.text.includes(input) === true,
    );
    if (at < 0) throw new NothingToJudge(`no request ran the turn "${input}"`);
    const weighs = reportedInputTokens(request(this, at + 1).body);
    if (weighs >= budget)
      throw new NothingToJudge(
        `${requestLabel(at + 1)}, the turn "${input}" after the compaction, weighs ${weighs} tokens, over the budget of ${budget}: the request as it now is calls for another compaction`,
      );
  },
);

/**
 * That the runtime compacted, however many times: one more compaction with nothing older to fold is
 * CMP-03's to judge, in its own scenarios. The count is kept for the steps after it.
 */
Then('the session has at least {int} completed compaction(s)', async function (this: KitWorld, count: number) {
  const completed = await completedCompactions(this);
  this.compactionsCounted = { completed, requests: this.provider.requests.length };
  expect(completed, 'completed compactions').to.be.at.least(count);
});

/**
 * A compaction a later check needs, or one that shows an earlier check could have failed: whether
 * the runtime compacts where it should is CMP-01's and CMP-02's, in their own scenarios; where it
 * did not, what follows has nothing to tell apart.
 */
Then(
  'the session has at least {int} completed compaction(s), or nothing here is judged',
  async function (this: KitWorld, count: number) {
    await compactionsOrNothing(this, count, 'at least');
  },
);

/** The premise that `count` compactions (exactly, or at least) completed; the count is kept for the steps after it. */
async function compactionsOrNothing(world: KitWorld, count: number, bound: 'exactly' | 'at least'): Promise<void> {
  const completed = await completedCompactions(world);
  world.compactionsCounted = { completed, requests: world.provider.requests.length };
  if (bound === 'exactly' ? completed !== count : completed < count)
    throw new NothingToJudge(
      `the session has ${completed} completed compactions, not ${bound === 'exactly' ? '' : 'at least '}${count}`,
    );
}

/**
 * Since the compactions were last counted, the pending turn `input` went out in one request, with
 * no compaction before it, attempted or completed.
 */
Then(
  'the turn {string} went out alone, with no compaction since they were counted',
  async function (this: KitWorld, input: string) {
    const counted = this.compactionsCounted;
    if (!counted) throw new SuiteDefect('no step counted the completed compactions before this one');
    expect(await completedCompactions(this), 'completed compactions').to.equal(counted.completed);
    const sent = this.provider.requests.slice(counted.requests);
    expect(
      sent.map((_, i) => requestLabel(counted.requests + i + 1)),
      `the requests sent since the compactions were counted, for the turn "${input}" alone`,
    ).to.have.length(1);
    expect(
      ranTurnUncompacted(this, counted.requests + 1, input),
      `whether that request ran the turn "${input}"`,
    ).to.equal(true);
  },
);

/**
 * Compactions the user asked for that a rule about what they keep needs: where they did not all
 * complete, the rule has nothing to be judged on here.
 */
Then(
  'the session has {int} completed compaction(s), or nothing here is judged',
  async function (this: KitWorld, count: number) {
    await compactionsOrNothing(this, count, 'exactly');
  },
);

/**
 * Attempts whose start is durable and whose end never came: still started after a crash, or marked
 * failed when the runtime found them again (the seeds fix neither). A start written only with its
 * end leaves nothing here.
 */
Then('the session has {int} compaction(s) that did not complete', async function (this: KitWorld, count: number) {
  const { compactions } = await this.driver.call('compactions', { sessionId: this.session().id });
  const statuses = compactions.map((c) => c.status);
  expect(statuses, 'the compaction attempts stored').to.not.include('completed');
  expect(statuses, 'the compaction attempts stored, none completed').to.have.length(count);
});

/**
 * What crosses the boundary is what the provider produced before it: a tool message, a tool call,
 * or an assistant message holding words the provider wrote. Words a runtime writes itself around
 * its checkpoint (an acknowledgement of the summary) are not the provider's.
 */
Then('{request} carries no assistant or tool message', function (this: KitWorld, n: number) {
  const replied = new Set(this.provider.replies.filter((text) => text !== ''));
  const crossed = checkpointFirst(this, n).filter(
    (m) => m.role === 'tool' || (m.role === 'assistant' && (replied.has(m.text) || (m.toolCalls?.length ?? 0) > 0)),
  );
  expect(
    crossed.map((m) => `${m.role}: ${m.text.slice(0, 60)}`),
    `provider messages of before the compaction in ${requestLabel(n)}`,
  ).to.deep.equal([]);
});

Then(
  'the history holds one hidden compaction checkpoint with the summary {string}',
  async function (this: KitWorld, summary: string) {
    // The checkpoint holds the summary; the words a runtime puts around it are its own (no seed fixes them).
    const checkpoints = (await this.driver.history(this.session().id)).flatMap((m) =>
      m.role === 'compaction' ? [{ holdsSummary: m.text.includes(summary), hidden: m.hidden }] : [],
    );
    expect(checkpoints).to.deep.equal([{ holdsSummary: true, hidden: true }]);
  },
);

Given('the provider refuses the request as too long for its context window', function (this: KitWorld) {
  this.provider.enqueue({ turn: recordingTurn('context-overflow') });
});
