import { test } from 'node:test';
import assert from 'node:assert/strict';
import { rulesNamedBy } from './scenario-selection.js';

test('a selection by rule tags alone counts those rules; any other expression selects only scenarios', () => {
  assert.deepEqual(rulesNamedBy('@INB-07'), ['INB-07']);
  assert.deepEqual(rulesNamedBy('(@INB-07 or @RUN-02)'), ['INB-07', 'RUN-02']);
  for (const expression of [undefined, '@area:inbox', '@INB-07 and @RUN-02', 'not @INB-07', '@INB-07 or', '@id:x'])
    assert.equal(rulesNamedBy(expression), undefined, String(expression));
});
