import assert from 'node:assert/strict';
import { test } from 'node:test';
import { SystemFallback } from './system-fallback.js';

const fallback = new SystemFallback('<system-reminder>\n{text}\n</system-reminder>');
const wrapped = (text: string) => `<system-reminder>\n${text}\n</system-reminder>`;

test('wrapped system messages that open a user turn come before its text', () => {
  assert.deepEqual(fallback.split(`${wrapped('skills')}${wrapped('date')}hello`), {
    before: ['skills', 'date'],
    user: 'hello',
    system: undefined,
  });
});

test('a user turn that ends with a wrapped system message keeps reading as before', () => {
  assert.deepEqual(fallback.split(`hello\n${wrapped('update')}`), { before: [], user: 'hello', system: 'update' });
  assert.deepEqual(fallback.split(wrapped('update')), { before: [], user: undefined, system: 'update' });
  assert.equal(fallback.split('hello'), undefined);
});

test('the blocks opening the first user turn end the baseline; later turns are untouched', () => {
  const lifted = fallback.lift({
    baseline: ['prompt'],
    messages: [
      { role: 'user', text: `${wrapped('environment')}${wrapped('date')}hello` },
      { role: 'assistant', text: 'hi' },
      { role: 'user', text: `${wrapped('date')}again` },
    ],
    tools: [],
  });
  assert.deepEqual(lifted.baseline, ['prompt', 'environment', 'date']);
  assert.deepEqual(
    lifted.messages.map((message) => message.text),
    ['hello', 'hi', `${wrapped('date')}again`],
  );
});

test('a user turn of wrapped context alone ahead of any prompt is baseline', () => {
  const lifted = fallback.lift({
    baseline: ['prompt'],
    messages: [
      { role: 'user', text: wrapped('environment') },
      { role: 'user', text: 'hello' },
    ],
    tools: [],
  });
  assert.deepEqual(lifted.baseline, ['prompt', 'environment']);
  assert.deepEqual(
    lifted.messages.map((message) => message.text),
    ['hello'],
  );
  const alone = fallback.lift({
    baseline: ['prompt'],
    messages: [{ role: 'user', text: wrapped('environment') }],
    tools: [],
  });
  assert.deepEqual(alone.baseline, ['prompt', 'environment']);
  assert.deepEqual(alone.messages, []);
});

test('a request whose first user turn opens with no wrapped block is left as it is', () => {
  const request = { baseline: ['prompt'], messages: [{ role: 'user', text: 'hello' }], tools: [] };
  assert.equal(fallback.lift(request), request);
});

test('several declared wrappers, one opening with any text within its first line, are each read', () => {
  const several = new SystemFallback('<env>\n{text}\n</env>{or}# Notes for {*}\n\n<NOTES>\n{text}\n</NOTES>');
  const notes = (dir: string, text: string) => `# Notes for ${dir}\n\n<NOTES>\n${text}\n</NOTES>`;
  assert.deepEqual(several.split(notes('/a/b', 'use tabs')), { before: [], user: undefined, system: 'use tabs' });
  assert.deepEqual(several.split(`hello\n<env>\ndate\n</env>`), { before: [], user: 'hello', system: 'date' });
  assert.equal(several.split('# Notes for\nx\n</NOTES>'), undefined);
  const lifted = several.lift({
    baseline: ['prompt'],
    messages: [
      { role: 'user', text: `${notes('/a', 'be brief')}<env>\ncwd\n</env>` },
      { role: 'user', text: 'hello' },
    ],
    tools: [],
  });
  assert.deepEqual(lifted.baseline, ['prompt', 'be brief', 'cwd']);
  assert.deepEqual(
    lifted.messages.map((message) => message.text),
    ['hello'],
  );
});
