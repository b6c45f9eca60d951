import { readFileSync } from 'node:fs';
import { Given, Then } from '@cucumber/cucumber';
import { expect } from 'chai';
import { NothingToJudge } from '../../harness/report/outcome.js';
import type { MediaKind } from '../support/parameter-types.js';
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
  'request {int} reads the output of call {string} as {string}',
  function (this: KitWorld, n: number, id: string, text: string) {
    expect(outputSent(this, n, id), `the output of "${id}" in request ${n}`).to.equal(text);
  },
);

Then(
  'request {int} reads, in place of the {media-kind} of call {string}, {string}',
  async function (this: KitWorld, n: number, kind: MediaKind, id: string, text: string) {
    await returnedMedia(this, id, kind);
    const { texts, mediaTypes } = readingOf(this, n, id);
    expect(mediaTypes.filter(ofKind(kind)), `the ${kind} of the pruned call "${id}" in ${requestLabel(n)}`).to.be.empty;
    expect(
      texts.join('\n').split('\n'),
      `what the model reads for the pruned call "${id}" in ${requestLabel(n)}`,
    ).to.include(text);
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

/** Whether a media type is of the kind: an image, or any other file. */
const ofKind = (kind: MediaKind) => (mediaType: string) => mediaType.startsWith('image/') === (kind === 'image');

/**
 * What the model reads for call `id` in request `n`: its result, and the user messages that follow
 * the results of its turn before anything else (where a dialect's tool results hold text only, a
 * runtime shows their images and files there), its own prompts excepted.
 */
function readingOf(world: KitWorld, n: number, id: string): { texts: string[]; mediaTypes: string[] } {
  const { messages } = request(world, n);
  const at = messages.findIndex((message) => message.role === 'tool' && message.toolCallId === id);
  if (at < 0) throw new Error(`${requestLabel(n)} has no output of call "${id}"`);
  const shown = [messages[at]!];
  let next = at + 1;
  while (messages[next]?.role === 'tool') next += 1;
  for (; messages[next]?.role === 'user' && !world.promptsAdmitted.has(messages[next]!.text); next += 1)
    shown.push(messages[next]!);
  return {
    texts: shown.map((message) => message.text).filter((text) => text !== ''),
    mediaTypes: shown.flatMap((message) => message.mediaTypes ?? []),
  };
}

/**
 * The premise of a scenario about an image or a file a tool returned: the runtime keeps one with
 * the call's result, or showed the model one for it. A read tool that returns the bytes as text (or
 * refuses them) gave the call nothing of the kind to weigh or to replace.
 */
async function returnedMedia(world: KitWorld, id: string, kind: MediaKind): Promise<void> {
  const call = await toolCall(world, id);
  if ((call.attachments ?? []).some((attachment) => ofKind(kind)(attachment.mediaType))) return;
  const requests = world.provider.requests.length;
  for (let n = 1; n <= requests; n++) {
    const shown = request(world, n).messages.some((message) => message.toolCallId === id);
    if (shown && readingOf(world, n, id).mediaTypes.some(ofKind(kind))) return;
  }
  throw new NothingToJudge(
    `call "${id}" kept no ${kind} with its result, and no request showed the model one for it: its output reads ${quoted(call.output)}`,
  );
}

const quoted = (text: string | null | undefined) => (text ? `"${text.slice(0, 120)}"` : '(none)');

Then(
  'call {string} returned the {media-kind} beside its text, or nothing here is judged',
  function (this: KitWorld, id: string, kind: MediaKind) {
    return returnedMedia(this, id, kind);
  },
);

Then(
  'request {int} shows the model the {media-kind} of call {string}',
  function (this: KitWorld, n: number, kind: MediaKind, id: string) {
    const { mediaTypes } = readingOf(this, n, id);
    expect(mediaTypes.some(ofKind(kind)), `${requestLabel(n)} shows the ${kind} of call "${id}"`).to.equal(true);
  },
);

/**
 * PRU-04: in place of a pruned result's image (file), the model reads a text that says an image (a
 * file) was removed. The words are the runtime's, declared as `pruning.replacement.image`
 * (`.file`), and say more than a pruned output's own text does: a declaration equal to it, or to
 * the other kind's, says nothing of what was removed. A runtime that declares none is held to what
 * it shows: a result that reads as the pruned output's text alone says nothing of the image.
 */
Then(
  'request {int} reads, in place of the {media-kind} of call {string}, a text that says it was removed',
  async function (this: KitWorld, n: number, kind: MediaKind, id: string) {
    await returnedMedia(this, id, kind);
    if (!(await toolCall(this, id)).pruned)
      throw new NothingToJudge(`call "${id}" was not pruned: nothing stands in place of its ${kind}`);
    const { texts, mediaTypes } = readingOf(this, n, id);
    expect(mediaTypes.filter(ofKind(kind)), `the ${kind} of the pruned call "${id}" in ${requestLabel(n)}`).to.be.empty;
    const { texts: declared } = this.driver.description;
    const output = declared['pruning.replacement'];
    const own = declared[`pruning.replacement.${kind}`];
    const other = declared[`pruning.replacement.${kind === 'image' ? 'file' : 'image'}`];
    const read = texts.join('\n');
    if (own === undefined) {
      const besideOutput = output === undefined ? read : texts.map((text) => text.replace(output, '')).join('');
      if (besideOutput.trim() === '')
        expect.fail(
          `in ${requestLabel(n)} the pruned call "${id}" reads ${quoted(read)} alone: nothing in place of its ${kind} says ${kind === 'image' ? 'an image' : 'a file'} was removed`,
        );
      throw new NothingToJudge(
        `the runtime declared no text "pruning.replacement.${kind}" to read the text in place of the ${kind} of call "${id}" as (it reads ${quoted(read)})`,
      );
    }
    expect(own, `the declared "pruning.replacement.${kind}" is the text of a pruned tool output`).to.not.equal(output);
    expect(own, `the declared "pruning.replacement.${kind}" is the text of the other kind`).to.not.equal(other);
    expect(read, `what the model reads for the pruned call "${id}" in ${requestLabel(n)}`).to.include(own);
  },
);

Then(
  'the history keeps the {media-kind} of call {string} whole, {pruning-mark}',
  async function (this: KitWorld, kind: MediaKind, id: string, pruned: boolean) {
    await returnedMedia(this, id, kind);
    const call = await toolCall(this, id);
    const path = this.readFiles.get(id);
    if (path === undefined) throw new Error(`the scenario scripted no read call "${id}"`);
    const kept = (call.attachments ?? []).filter((attachment) => ofKind(kind)(attachment.mediaType));
    // A runtime whose history shows no attachments showed the model the media: nothing durable to compare.
    if (kept.length === 0 && call.attachments === undefined)
      throw new NothingToJudge(`the history shows no attachments of call "${id}" to find its ${kind} in`);
    expect(
      kept.map((attachment) => attachment.data),
      `the ${kind} the history keeps for call "${id}"`,
    ).to.deep.equal([readFileSync(path).toString('base64')]);
    expect(call.pruned ?? false, `whether "${id}" is marked pruned`).to.equal(pruned);
  },
);
