import { test } from 'node:test';
import assert from 'node:assert/strict';
import { nonEmpty } from './option-values.js';

test('a string flag given twice or empty is refused by its name, not taken as one of its values', () => {
  const tags = nonEmpty('--tags');
  assert.equal(tags('@area:inbox'), '@area:inbox');
  assert.throws(() => tags(['@a', '@b']), /--tags.*given 2 times/);
  assert.throws(() => tags('  '), /--tags.*needs a value/);
});
