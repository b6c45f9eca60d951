import { Then, When } from '@cucumber/cucumber';
import { expect } from 'chai';
import type { KitWorld } from '../support/world.js';
import type { HistoryMessage, PromptMetadata } from '../../harness/protocol/protocol.js';
import { conversation, request, requestLabel } from '../support/requests.js';
import { image, pdf } from '../support/prompts.js';

/** User, system and compaction messages share one shape in the protocol. */
type UserMessage = Extract<HistoryMessage, { role: 'user' }>;

/** `metadata`, when given, must come back exactly: no key lost, changed or added. */
async function expectContinuation(world: KitWorld, text: string, metadata?: PromptMetadata): Promise<void> {
  const newest = (await world.driver.history(world.session().id)).findLast((m): m is UserMessage => m.role === 'user');
  expect(
    newest && {
      text: newest.text,
      hidden: newest.hidden,
      continuation: newest.continuation ?? false,
      ...(metadata ? { metadata: newest.metadata } : {}),
    },
  ).to.deep.equal({
    text,
    hidden: true,
    continuation: true,
    ...(metadata ? { metadata } : {}),
  });
}

/**
 * Something was injected for the model to go on with, whatever its words: the request ends with a
 * user turn of its own, not the one that carries the summary.
 */
Then(
  '{request} ends with a user message after the one mentioning {string}',
  function (this: KitWorld, n: number, summary: string) {
    const last = conversation(this, n).at(-1);
    expect(
      last?.role === 'user' && !last.content.includes(summary),
      `the last message of ${requestLabel(n)} is a user message apart from the summary: ${JSON.stringify(last)}`,
    ).to.equal(true);
  },
);

// Continuation texts are literal where a seed fixes them (`002`: `continue`), else declared.
Then('{request} ends with the user message reading {text}', function (this: KitWorld, n: number, text: string) {
  expect(conversation(this, n).at(-1)).to.deep.equal({ role: 'user', content: text });
});

Then(
  'the newest user message in the history is a hidden continuation reading {text}',
  function (this: KitWorld, text: string) {
    return expectContinuation(this, text);
  },
);

Then(
  'the newest user message in the history is a hidden continuation reading {text} with the metadata:',
  function (this: KitWorld, text: string, metadata: string) {
    return expectContinuation(this, text, JSON.parse(metadata) as PromptMetadata);
  },
);

Then(
  'the history has {int} hidden continuation(s) reading {text}',
  async function (this: KitWorld, count: number, text: string) {
    const continuations = (await this.driver.history(this.session().id)).flatMap((m) =>
      m.role === 'user' && m.continuation ? [{ text: m.text, hidden: m.hidden }] : [],
    );
    expect(continuations, 'the continuation messages in the history').to.deep.equal(
      Array.from({ length: count }, () => ({ text, hidden: true })),
    );
  },
);

When('the user steers {string} with an image', async function (this: KitWorld, text: string) {
  this.receipt = await this.driver.admit(
    this.session().id,
    { parts: [{ type: 'text', text }, image] },
    { delivery: 'steer' },
  );
});

When(
  'the user steers {string} with an image from {string}',
  async function (this: KitWorld, text: string, source: string) {
    this.receipt = await this.driver.admit(
      this.session().id,
      {
        parts: [
          { type: 'text', text },
          { ...image, source },
        ],
      },
      { delivery: 'steer' },
    );
  },
);

When('the user steers {string} with the metadata:', async function (this: KitWorld, text: string, metadata: string) {
  this.receipt = await this.driver.admit(
    this.session().id,
    { parts: [{ type: 'text', text }], metadata: JSON.parse(metadata) as PromptMetadata },
    { delivery: 'steer' },
  );
});

When(/^the user steers only an image(?: to session "([^"]*)")?$/, async function (this: KitWorld, name?: string) {
  this.receipt = await this.driver.admit(this.session(name).id, { parts: [image] }, { delivery: 'steer' });
});

Then('{request} carries {int} image(s)', function (this: KitWorld, n: number, count: number) {
  expect(request(this, n).messages.reduce((sum, m) => sum + (m.media ?? 0), 0)).to.equal(count);
});

When(
  'the user steers {string} with the file {string} from {string}',
  async function (this: KitWorld, text: string, filename: string, source: string) {
    this.receipt = await this.driver.admit(
      this.session().id,
      {
        parts: [
          { type: 'text', text },
          { ...pdf, filename, source },
        ],
      },
      { delivery: 'steer' },
    );
  },
);

/** The files of a request other than images, as the request's own media types tell them. */
Then('{request} carries {int} file(s) other than images', function (this: KitWorld, n: number, count: number) {
  const types = request(this, n).messages.flatMap((m) => m.mediaTypes ?? []);
  expect(
    types.filter((type) => !type.startsWith('image/')),
    `the media types of ${requestLabel(n)}`,
  ).to.have.length(count);
});

/** A prompt's attachment keeps, in the session, the source it came from: session-level metadata. */
Then(
  'the history keeps the source {string} with the user message {string}',
  async function (this: KitWorld, source: string, text: string) {
    const message = (await this.driver.history(this.session().id)).find(
      (m): m is UserMessage => m.role === 'user' && m.text === text,
    );
    expect(message, `a user message "${text}" in the history`).to.not.equal(undefined);
    expect(
      (message!.attachments ?? []).map((attachment) => attachment.source),
      `the sources of the attachments of "${text}"`,
    ).to.deep.equal([source]);
  },
);

/** The continuation of a message with media: hidden, marked so, and carrying no media. */
async function mediaContinuation(world: KitWorld, session?: string): Promise<UserMessage> {
  const newest = (await world.driver.history(world.session(session).id)).findLast(
    (m): m is UserMessage => m.role === 'user',
  );
  expect(newest?.continuation, 'the newest user message is a continuation').to.equal(true);
  expect(newest?.continuationOfMedia, 'marked as standing for a message with media').to.equal(true);
  expect(newest?.hidden, 'hidden from the user transcript').to.equal(true);
  return newest!;
}

/**
 * A message of text and media is continued by its text, marked as resumed rather than repeated as
 * it was; one with no text by a placeholder: the one another session's message of media alone got,
 * where the step names that session (an empty text is no text).
 */
Then(
  /^the newest user message in the history is a hidden continuation of media (?:that marks the resumption of "([^"]*)"|with a placeholder text|with the placeholder text of session "([^"]*)")$/,
  async function (this: KitWorld, resumed: string | null, mediaAlone: string | null) {
    const continuation = await mediaContinuation(this);
    if (resumed === null) {
      expect(continuation.text, 'the placeholder text').to.not.equal('');
      if (mediaAlone === null) return;
      const placeholder = (await mediaContinuation(this, mediaAlone)).text;
      expect(continuation.text, `the placeholder text of session "${mediaAlone}"`).to.equal(placeholder);
      return;
    }
    expect(continuation.text).to.include(resumed);
    expect(continuation.text, 'marked as a resumption, not the message repeated as it was').to.not.equal(resumed);
  },
);
