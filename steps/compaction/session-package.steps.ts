import { Then } from '@cucumber/cucumber';
import { expect } from 'chai';
import type { KitWorld } from '../support/world.js';
import { request, requestLabel } from '../support/requests.js';
import { orEmpty } from '../../harness/report/failure-words.js';
import { NothingToJudge } from '../../harness/report/outcome.js';
import { providerOptions } from '../support/provider-options.js';

Then(
  '{request} begins with the question {string} answered by {string}',
  function (this: KitWorld, n: number, question: string, answer: string) {
    const [first, second, ...rest] = request(this, n).messages;
    expect([first?.role, first?.text], `the first message of request ${n}`).to.deep.equal(['user', question]);
    expect(second?.role, `the second message of request ${n}`).to.equal('assistant');
    expect(
      second?.text.startsWith(answer),
      `the second message of request ${n} starts with "${answer}"\nit begins:\n${orEmpty(second?.text.slice(0, 80))}`,
    ).to.equal(true);
    expect(
      rest.filter((m) => m.text.includes(answer)).map((m) => m.role),
      'the summary is not repeated',
    ).to.deep.equal([]);
  },
);

Then(
  'compaction {int} freed between {int} and {int} tokens',
  async function (this: KitWorld, n: number, least: number, most: number) {
    const { compactions } = await this.driver.call('compactions', { sessionId: this.session().id });
    const completed = compactions.filter((c) => c.status === 'completed');
    expect(completed.length, 'completed compactions').to.be.at.least(n);
    const freed = completed[n - 1]!.tokensFreed;
    if (freed === undefined) expect.fail(`compaction ${n} records no count of the tokens it freed`);
    expect(freed, `the tokens compaction ${n} freed`).to.be.within(least, most);
  },
);

Then('the baseline of {request} is the declared text {string}', function (this: KitWorld, n: number, name: string) {
  expect(request(this, n).baseline).to.deep.equal([this.declaredText(name)]);
});

Then('{request} limits the output to {int} tokens', function (this: KitWorld, n: number, tokens: number) {
  const body = request(this, n).body as Record<string, unknown>;
  expect(
    body.max_tokens ?? body.max_completion_tokens ?? body.max_output_tokens,
    `the output limit of request ${n}`,
  ).to.equal(tokens);
});

/**
 * The session's provider options go with a compaction request (SCP-02): each provider-specific
 * field a turn of the session carries, the summary request carries with the same value. A turn
 * that carries none shows nothing of the session's options.
 */
Then(
  '{request} carries the provider options of {request}, or nothing here is judged',
  function (this: KitWorld, n: number, turn: number) {
    const dialect = this.provider.dialect.name;
    const expected = providerOptions(dialect, request(this, turn).body);
    if (expected.size === 0) {
      const body = request(this, turn).body;
      const fields = body && typeof body === 'object' ? Object.keys(body).join(', ') : 'none';
      throw new NothingToJudge(
        `${requestLabel(turn)} carries no provider-specific option of the ${dialect} dialect (its fields: ${fields})`,
      );
    }
    const carried = providerOptions(dialect, request(this, n).body);
    expect(
      Object.fromEntries([...expected.keys()].map((field) => [field, carried.get(field) ?? '(absent)'])),
      `the provider options of ${requestLabel(n)}, as ${requestLabel(turn)} carries them`,
    ).to.deep.equal(Object.fromEntries(expected));
  },
);
