import { test } from 'node:test';
import assert from 'node:assert/strict';
import { expect } from 'chai';
import { inKitWords, listed, orEmpty, shown } from './failure-words.js';

/** The message of the failed check `check`, as the kit words it. */
function worded(check: () => void): string {
  try {
    check();
  } catch (error) {
    return (inKitWords(error) as Error).message;
  }
  throw new Error('the check passed');
}

test('a failed check says what was expected and what was seen, in words', () => {
  assert.equal(
    worded(() => expect(false, 'request 2 repeats request 1').to.equal(true)),
    'request 2 repeats request 1: expected yes, saw no',
  );
  assert.equal(
    worded(() => expect(3, 'provider requests').to.equal(2)),
    'provider requests: expected 2, saw 3',
  );
  assert.equal(
    worded(() => expect(-1).to.be.at.least(0)),
    'expected at least 0, saw -1',
  );
  assert.equal(
    worded(() => expect(0, 'requests after request 1').to.be.above(0)),
    'requests after request 1: expected more than 0, saw 0',
  );
  assert.equal(
    worded(() => expect(9).to.be.within(1, 3)),
    'expected between 1 and 3, saw 9',
  );
  assert.equal(
    worded(() => expect('x').to.be.oneOf(['a', 'b'])),
    'expected one of "a", "b", saw "x"',
  );
  assert.equal(
    worded(() => expect(undefined, 'the path').to.be.a('string')),
    'the path: expected a string, saw (none)',
  );
  assert.equal(
    worded(() => expect([1, 2], 'inbox rows').to.have.length(1)),
    'inbox rows: expected 1 item(s), saw 2',
  );
  assert.equal(
    worded(() => expect([]).to.have.length.greaterThan(0)),
    'expected more than 0 item(s), saw 0',
  );
  assert.equal(
    worded(() => expect({ a: 1 }).to.not.have.property('a')),
    'expected no property "a", saw {"a":1}',
  );
});

test('an empty value reads as empty, not as nothing', () => {
  assert.equal(
    worded(() => expect('', 'the output of "c1"').to.include('abc')),
    'the output of "c1": expected text including "abc", saw (empty)',
  );
  assert.equal(
    worded(() => expect('').to.match(/x/)),
    'expected text matching /x/, saw (empty)',
  );
  assert.equal(
    worded(() => expect('', 'the placeholder text').to.not.equal('')),
    'the placeholder text: expected anything but (empty), saw (empty)',
  );
  assert.equal(
    worded(() => expect(undefined, 'the last message').to.equal('user')),
    'the last message: expected "user", saw (none)',
  );
  assert.equal(shown([]), '(none)');
  assert.equal(orEmpty(' \n'), '(empty)');
  assert.equal(listed([]), '(none)');
});

test('a label of several lines says what failed first and quotes the rest after it', () => {
  assert.equal(
    worded(() => expect(false, 'the baseline names /w\nthe baseline:\n(empty)').to.equal(true)),
    'the baseline names /w: expected yes, saw no\nthe baseline:\n(empty)',
  );
});

test('two primitives get no diff of their own; two records keep theirs for their first difference', () => {
  const error = (check: () => void) => {
    try {
      check();
    } catch (thrown) {
      return inKitWords(thrown) as Error & { showDiff: boolean };
    }
    throw new Error('the check passed');
  };
  const primitive = error(() => expect(false).to.equal(true));
  assert.equal(primitive.showDiff, false);
  assert.equal(primitive.stack?.split('\n')[0], 'expected yes, saw no');
  assert.equal(error(() => expect([1]).to.deep.equal([2])).showDiff, true);
});

test('an error that is no chai check is left as it is', () => {
  const error = new Error('the runtime did not answer');
  assert.equal(inKitWords(error), error);
  assert.equal(error.message, 'the runtime did not answer');
});

test('a property of a record names the property', () => {
  assert.equal(
    worded(() => expect({ messageId: 'x', state: 'pending' }, 'the receipt').to.deep.include({ messageId: 'm1' })),
    'the receipt: expected messageId "m1", saw "x"',
  );
});

test('a text that holds what it must not is shown where it holds it', () => {
  const text = `${'a'.repeat(300)}<location>/skills/alpha-7c1/SKILL.md</location>${'b'.repeat(300)}`;
  const message = worded(() => expect(text, 'the baseline of request 1').to.not.include('alpha-7c1'));
  assert.match(
    message,
    /^the baseline of request 1: expected text without "alpha-7c1", saw it at character 319 of 647: "…a+<location>\/skills\/alpha-7c1\/SKILL.md<\/location>b+…"$/,
  );
  assert.equal(
    worded(() => expect('short alpha-7c1', 'x').to.not.include('alpha-7c1')),
    'x: expected text without "alpha-7c1", saw it at character 7 of 15: "short alpha-7c1"',
  );
});
