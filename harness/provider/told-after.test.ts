import { test } from 'node:test';
import assert from 'node:assert/strict';
import { toldAfter } from './told-after.js';

const messages = ['steer start', 'gate g1 opened', 's1', 's3'];

test('texts told once each, in order, after the last message holding the mark pass', () => {
  assert.equal(toldAfter(messages, 'gate g1 opened', ['s1', 's3'], 'request 2'), undefined);
});

test('a text not told after the mark is named, with what is told there', () => {
  assert.equal(
    toldAfter(messages, 'gate g1 opened', ['s1', 's2'], 'request 2'),
    '"s2" is not told after "gate g1 opened" in request 2; told after it:\ns1\ns3',
  );
  assert.equal(
    toldAfter(messages.slice(0, 2), 'gate g1 opened', ['s1'], 'request 2'),
    '"s1" is not told after "gate g1 opened" in request 2; told after it:\n(nothing)',
  );
});

test('a missing mark, a text told twice and texts out of order each say so', () => {
  assert.equal(
    toldAfter(messages, 'gate g2 opened', ['s1'], 'request 2'),
    'no message of request 2 holds "gate g2 opened"; its messages:\nsteer start\ngate g1 opened\ns1\ns3',
  );
  assert.equal(
    toldAfter([...messages, 's1'], 'gate g1 opened', ['s1'], 'request 2'),
    '"s1" is told 2 times, not once, after "gate g1 opened" in request 2; told after it:\ns1\ns3\ns1',
  );
  assert.equal(
    toldAfter(messages, 'gate g1 opened', ['s3', 's1'], 'request 2'),
    '"s3", "s1" are told after "gate g1 opened" in request 2 in the order "s1", "s3"; told after it:\ns1\ns3',
  );
});
