import { test } from 'node:test';
import assert from 'node:assert/strict';
import { nonEmpty, timeoutScale } from './option-values.js';

test('a string flag given twice or empty is refused by its name, not taken as one of its values', () => {
  const tags = nonEmpty('--tags');
  assert.equal(tags('@area:inbox'), '@area:inbox');
  assert.throws(() => tags(['@a', '@b']), /--tags.*given 2 times/);
  assert.throws(() => tags('  '), /--tags.*needs a value/);
});

test('a number flag given twice is refused by its name, not as a number out of range', () => {
  assert.equal(timeoutScale(2), 2);
  assert.throws(() => timeoutScale([2, 3]), /--timeout-scale.*given 2 times: give it once/);
  assert.throws(() => timeoutScale(1000), /--timeout-scale.*from 0\.1 to 100/);
});
