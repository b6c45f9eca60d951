import { test } from 'node:test';
import assert from 'node:assert/strict';
import { firstDifference } from './first-difference.js';

test('the first differing line of two records is shown whole, beside the expected one', () => {
  const expected = [{ id: 'm1', text: 'hello', delivery: 'steer', state: 'pending' }];
  const actual = [{ id: 'm1', text: 'hello', delivery: 'queue', state: 'pending' }];
  assert.deepEqual(firstDifference(expected, actual), [
    'first difference, line 5 of the record:',
    '  expected:     "delivery": "steer",',
    '  actual:       "delivery": "queue",',
  ]);
});

test('a record with a line more or fewer says which line is missing', () => {
  assert.deepEqual(firstDifference({ a: 1 }, { a: 1, b: 2 }), [
    'first difference, line 2 of the record:',
    '  expected:   "a": 1',
    '  actual:     "a": 1,',
  ]);
  assert.deepEqual(firstDifference('one\ntwo', 'one'), [
    'first difference, line 2 of the record:',
    '  expected: two',
    '  actual:   (no such line)',
  ]);
});

test('a list that lacks an item, or holds one more, names that item on one line', () => {
  const told = [
    { role: 'user', content: 'start' },
    { role: 'user', content: 'also this' },
  ];
  assert.deepEqual(firstDifference(told, told.slice(0, 1)), [
    'first difference, item 2 of the list:',
    '  expected: {"role":"user","content":"also this"}',
    '  actual:   (none)',
  ]);
  assert.deepEqual(firstDifference(told.slice(0, 1), told), [
    'first difference, item 2 of the list:',
    '  expected: (none)',
    '  actual:   {"role":"user","content":"also this"}',
  ]);
  // Lists that part before one ends show the line where they part.
  assert.match(firstDifference(told, [told[1], told[0]])![0]!, /^first difference, line \d+ of the record:$/);
});

test('two texts of one line each get no first difference: the message shows them whole', () => {
  assert.equal(firstDifference('m1', 'msg_0_0002'), undefined);
});

test('a long line is shown from just before its first differing character', () => {
  const expected = `${'x'.repeat(1000)}é${'y'.repeat(500)}`;
  const actual = `${'x'.repeat(1000)}e${'y'.repeat(500)}`;
  const [, wanted, found] = firstDifference(expected, actual)!;
  assert.match(wanted!, /^ {2}expected: …\(from character 941\) x{60}éy{179}…$/);
  assert.match(found!, /^ {2}actual: {3}…\(from character 941\) x{60}ey{179}…$/);
});

test('equal records have no difference', () => {
  assert.equal(firstDifference({ a: [1, 2] }, { a: [1, 2] }), undefined);
});

test('an empty line reads as empty', () => {
  assert.deepEqual(firstDifference('one\ntwo', 'one\n'), [
    'first difference, line 2 of the record:',
    '  expected: two',
    '  actual:   (empty)',
  ]);
});

test('a value checked against the values allowed, or a record against a text, has no first difference', () => {
  assert.equal(firstDifference(['error', 'success'], 'interrupted'), undefined);
  assert.equal(firstDifference([{ role: 'user' }], { role: 'user', content: 'x\ny' }), undefined);
  assert.equal(firstDifference('a\nb', { a: 'b' }), undefined);
});
