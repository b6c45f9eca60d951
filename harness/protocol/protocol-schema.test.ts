import { test } from 'node:test';
import assert from 'node:assert/strict';
import { partsRequested } from './protocol-schema.js';

test('a request asks for the parts of its command its field values stand for, and no others', () => {
  const admit = (fields: Record<string, unknown>) =>
    partsRequested({ cmd: 'prompt.admit', sessionId: 's1', prompt: 'hi', ...fields } as { cmd: string });
  assert.deepEqual(admit({}), []);
  assert.deepEqual(admit({ resume: true, delivery: 'steer' }), []);
  assert.deepEqual(admit({ resume: false }), ['prompt.admit.held']);
  assert.deepEqual(admit({ resume: false, delivery: 'queue' }), ['prompt.admit.queued', 'prompt.admit.held']);
  assert.deepEqual(partsRequested({ cmd: 'session.wake' }), []);
});
