import { test } from 'node:test';
import assert from 'node:assert/strict';
import { withReportedUsage } from './scripted-turn.js';

test('a reply filled to a token count makes up what its request does not weigh, and reports both', () => {
  const body = { messages: [{ role: 'user', content: 'x'.repeat(370) }] };
  const input = Math.ceil(JSON.stringify(body).length / 4);
  const turn = withReportedUsage({ kind: 'text', text: 'abc', chunks: 1, fillTo: 1000 }, body);
  assert.equal(turn.kind, 'text');
  if (turn.kind !== 'text') return;
  assert.equal(turn.text.length, (1000 - input) * 4);
  assert.equal(turn.text, 'abc'.repeat(turn.text.length).slice(0, turn.text.length));
  assert.deepEqual(turn.usage, { input, cacheRead: 0, output: 1000 - input });
});

test('a request already past the count gets an empty reply, not a negative length', () => {
  const turn = withReportedUsage({ kind: 'text', text: 'abc', chunks: 1, fillTo: 1 }, { content: 'x'.repeat(100) });
  assert.equal(turn.kind === 'text' ? turn.text : undefined, '');
});
