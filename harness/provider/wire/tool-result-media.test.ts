import { test } from 'node:test';
import assert from 'node:assert/strict';
import { decodeRequest as decodeAnthropic } from './anthropic-messages.js';
import { decodeRequest as decodeChat } from './openai-chat.js';

/**
 * A read tool's image or PDF reaches the model beside the tool's text: in the tool result where the
 * dialect allows it, else in a user message after the results. The neutral view keeps each one's
 * media type where it stands.
 */

test('Chat Completions: the images and files after a tool result are a user message of media', () => {
  const decoded = decodeChat({
    messages: [
      { role: 'user', content: 'Read them.' },
      { role: 'assistant', content: null, tool_calls: [{ id: 'i', function: { name: 'read', arguments: '{}' } }] },
      { role: 'tool', tool_call_id: 'i', content: 'Image read successfully' },
      {
        role: 'user',
        content: [
          { type: 'text', text: 'Attached media from tool result:' },
          { type: 'image_url', image_url: { url: 'data:image/png;base64,iVBORw0KGgo=' } },
          { type: 'file', file: { filename: 'brief.pdf', file_data: 'data:application/pdf;base64,JVBERi0=' } },
        ],
      },
    ],
  });
  assert.deepEqual(decoded.messages.slice(2), [
    { role: 'tool', text: 'Image read successfully', toolCallId: 'i' },
    {
      role: 'user',
      text: 'Attached media from tool result:',
      media: 2,
      mediaTypes: ['image/png', 'application/pdf'],
    },
  ]);
});

test('Messages: a tool result holds its text, its images and its PDFs as documents', () => {
  const decoded = decodeAnthropic({
    messages: [
      { role: 'assistant', content: [{ type: 'tool_use', id: 'i', name: 'read', input: {} }] },
      {
        role: 'user',
        content: [
          {
            type: 'tool_result',
            tool_use_id: 'i',
            content: [
              { type: 'text', text: 'Read the image pixel.png' },
              { type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'iVBORw0KGgo=' } },
              { type: 'document', source: { type: 'base64', media_type: 'application/pdf', data: 'JVBERi0=' } },
            ],
          },
          { type: 'document', source: { type: 'base64', media_type: 'application/pdf', data: 'JVBERi0=' } },
        ],
      },
    ],
  });
  assert.deepEqual(decoded.messages.slice(1), [
    {
      role: 'tool',
      text: 'Read the image pixel.png',
      toolCallId: 'i',
      media: 2,
      mediaTypes: ['image/png', 'application/pdf'],
    },
    { role: 'user', text: '', media: 1, mediaTypes: ['application/pdf'] },
  ]);
});
