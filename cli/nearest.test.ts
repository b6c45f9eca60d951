import { test } from 'node:test';
import assert from 'node:assert/strict';
import { nearRules, nearest } from './nearest.js';

test('a misspelt word gets the candidates within two edits, nearest first', () => {
  assert.deepEqual(nearest('--rulee', ['--rule', '--tags', '--runtime']), ['--rule']);
  assert.deepEqual(nearest('x', ['y', 'z']), []);
});

test('a rule ID written another way is the one meant; an unknown one in a known area gets its range', () => {
  const known = ['INB-01', 'INB-02', 'INB-07', 'RUN-04'];
  assert.deepEqual(nearRules('inb7', known), ['INB-07']);
  assert.deepEqual(nearRules('INB-99', known), ['one of INB-01 to INB-07']);
  assert.deepEqual(nearRules('RNU-04', known), ['RUN-04']);
  assert.deepEqual(nearRules('QQQ-99', known), []);
});
