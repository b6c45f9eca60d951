import { test } from 'node:test';
import assert from 'node:assert/strict';
import { decodeRequest } from './openai-chat.js';

test('Chat Completions: a custom tool, taking free-form input, is offered under its name as a function is', () => {
  const decoded = decodeRequest({
    messages: [{ role: 'user', content: 'Patch it.' }],
    tools: [
      { type: 'function', function: { name: 'bash', parameters: {} } },
      { type: 'custom', custom: { name: 'apply_patch', format: { type: 'grammar' } } },
    ],
  });
  assert.deepEqual(decoded.tools, ['bash', 'apply_patch']);
});
