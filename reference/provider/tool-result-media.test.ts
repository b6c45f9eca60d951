import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { ModelMessage } from '../history/message.js';
import { modelHistory } from '../history/model-history.js';
import { assistant, tool, user } from './history-for-tests.js';
import { anthropicMessages } from './anthropic-messages.js';
import { gemini } from './gemini.js';
import { openaiChat, RESULT_MEDIA_TEXT } from './openai-chat.js';
import { openaiResponses } from './openai-responses.js';
import type { ProviderDialect } from './dialect.js';
import type { ProviderConfig } from './provider-turn-stream.js';

const PNG = { mediaType: 'image/png', data: 'iVBORw0KGgo=', filename: 'pixel.png' };
const PDF = { mediaType: 'application/pdf', data: 'JVBERi0=', filename: 'brief.pdf' };

function body(dialect: ProviderDialect, name: ProviderConfig['dialect'], history: ModelMessage[]) {
  const config: ProviderConfig = { dialect: name, baseUrl: 'http://127.0.0.1/v1', apiKey: 'key', model: 'model-a' };
  return JSON.parse(
    JSON.stringify(dialect.encode({ model: 'model-a', baseline: [], history, tools: [] }, config).body),
  );
}

/** Two calls of one turn, each returning a file beside its text, then the next prompt. */
const history: ModelMessage[] = [
  user('read them'),
  assistant({
    toolCalls: [
      { callId: 'i', name: 'read', input: '{}' },
      { callId: 'p', name: 'read', input: '{}' },
    ],
  }),
  { ...tool('i', 'Read the image pixel.png'), attachments: [PNG] },
  { ...tool('p', 'Read the file brief.pdf'), attachments: [PDF] },
  user('next'),
];

test('Chat Completions: the results of a turn stay together, and their images and files follow them in one user message', () => {
  const { messages } = body(openaiChat, 'openai-chat', history);
  assert.deepEqual(
    messages.map((m: { role: string }) => m.role),
    ['user', 'assistant', 'tool', 'tool', 'user', 'user'],
  );
  assert.deepEqual(messages[4].content, [
    { type: 'text', text: RESULT_MEDIA_TEXT },
    { type: 'image_url', image_url: { url: 'data:image/png;base64,iVBORw0KGgo=' } },
    { type: 'file', file: { filename: 'brief.pdf', file_data: 'data:application/pdf;base64,JVBERi0=' } },
  ]);
});

test('Messages and Responses: an image or a PDF stands in the tool result, after its text', () => {
  const [, , results] = body(anthropicMessages, 'anthropic-messages', history).messages;
  assert.deepEqual(results.content[1].content, [
    { type: 'text', text: 'Read the file brief.pdf' },
    { type: 'document', source: { type: 'base64', media_type: 'application/pdf', data: 'JVBERi0=' } },
  ]);
  const outputs = body(openaiResponses, 'openai-responses', history).input.filter(
    (item: { type?: string }) => item.type === 'function_call_output',
  );
  assert.deepEqual(outputs[0].output, [
    { type: 'input_text', text: 'Read the image pixel.png' },
    { type: 'input_image', image_url: 'data:image/png;base64,iVBORw0KGgo=' },
  ]);
});

test('Gemini: the images and files follow the function response as inline data', () => {
  const [, , results] = body(gemini, 'gemini', history).contents;
  assert.deepEqual(results.parts[1], { inlineData: { mimeType: 'image/png', data: 'iVBORw0KGgo=' } });
});

test('a pruned result reads as the pruned output, then a line saying an image or a file was removed', () => {
  const pruned = history.map((m) => (m.role === 'tool' ? { ...m, pruned: true } : m));
  const results = modelHistory(pruned).filter((m) => m.role === 'tool');
  assert.deepEqual(
    results.map((m) => [m.output, m.attachments]),
    [
      ['[Old tool result content cleared]\n[Image removed from context]', undefined],
      ['[Old tool result content cleared]\n[File removed from context]', undefined],
    ],
  );
});
