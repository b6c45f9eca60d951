import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readSessionScript } from './session-script.js';
import { MAX_JSON_DEPTH } from '../input/json-input.js';

const dir = mkdtempSync(join(tmpdir(), 'kit-script-test-'));
after(() => rmSync(dir, { recursive: true, force: true }));

/** Writes a script whose timeline is `timeline` and reads it back. */
function script(text: string, recordings?: string) {
  const file = join(dir, `s${readdirSync(dir).length}.json`);
  writeFileSync(file, text);
  return () => readSessionScript(file, recordings);
}

const withTimeline = (steps: string) =>
  `{\n  "format": "kit-session-script/1",\n  "timeline": [\n    ${steps}\n  ]\n}\n`;

test('every shipped example script loads', () => {
  for (const name of readdirSync('fixtures/scripts')) {
    assert.ok(readSessionScript(join('fixtures/scripts', name)).timeline.length > 0, name);
  }
});

test('defaults are filled in, and tool calls without an ID get call_<n>', () => {
  const loaded = script(
    withTimeline(
      '{ "step": "provider-tool-calls", "calls": [{ "name": "echo", "input": {} }, { "id": "mine", "name": "echo", "input": {} }, { "name": "gate", "input": {} }] }',
    ),
  )();
  assert.equal(loaded.now, '2026-01-15T09:00:00.000Z');
  assert.equal(loaded.session, 's1');
  assert.equal(loaded.dialect, 'openai-chat');
  const [step] = loaded.timeline;
  assert.deepEqual(step?.step === 'provider-tool-calls' && step.calls.map((call) => call.id), [
    'call_1',
    'mine',
    'call_3',
  ]);
});

for (const [what, text, expected] of [
  [
    'a syntax error, by line and column',
    '{\n  "format": "kit-session-script/1",\n  "timeline": [,]\n}',
    /s\d+\.json:3:16: not valid JSON/,
  ],
  ['a missing field', withTimeline('{ "step": "prompt" }'), /s\d+\.json:4: timeline\[0\]\.text: is required$/],
  [
    'an unknown step',
    withTimeline('{ "step": "settle" },\n    { "step": "teleport" }'),
    /s\d+\.json:5: timeline\[1\]: "teleport" is not a known step$/,
  ],
  [
    'a delivery that is not one',
    withTimeline('{ "step": "prompt", "text": "hi", "delivery": "shout" }'),
    /:4: timeline\[0\]\.delivery: must be one of steer, queue$/,
  ],
  [
    'an unknown field',
    withTimeline('{ "step": "settle", "gate": "g1" }'),
    /:4: timeline\[0\]\.gate: is not a known field$/,
  ],
  [
    'a date that is not one',
    withTimeline('{ "step": "clock", "now": "tomorrow" }'),
    /:4: timeline\[0\]\.now: must be a date and time like 2026-01-15T09:00:00Z$/,
  ],
  [
    'a file outside the workspace',
    withTimeline('{ "step": "write-file", "path": "../escape.txt", "content": "" }'),
    /:4: timeline\[0\]\.path: must stay inside the workspace$/,
  ],
  [
    'the current directory as a file',
    withTimeline('{ "step": "write-file", "path": "./", "content": "" }'),
    /:4: timeline\[0\]\.path: must name a file, not a directory$/,
  ],
  [
    'a dot as a file',
    withTimeline('{ "step": "write-file", "path": ".", "content": "" }'),
    /:4: timeline\[0\]\.path: must name a file, not a directory$/,
  ],
  [
    'a NUL byte in a path',
    withTimeline('{ "step": "write-file", "path": "a\\u0000b", "content": "" }'),
    /:4: timeline\[0\]\.path: must not contain a NUL byte$/,
  ],
  [
    'a name too long for a file system',
    withTimeline(`{ "step": "write-file", "path": "d/${'n'.repeat(300)}", "content": "" }`),
    /:4: timeline\[0\]\.path: has a name longer than 255 bytes$/,
  ],
  [
    'a file followed by a path below it',
    withTimeline(
      '{ "step": "write-file", "path": "notes", "content": "" },\n    { "step": "write-file", "path": "notes/today.md", "content": "" }',
    ),
    /:5: timeline\[1\]\.path: is below notes, a file timeline\[0\] wrote$/,
  ],
  [
    'a directory written as a file',
    withTimeline(
      '{ "step": "write-file", "path": "a/b.md", "content": "" },\n    { "step": "write-file", "path": "./a", "content": "" }',
    ),
    /:5: timeline\[1\]\.path: is a directory: timeline\[0\] wrote a\/b\.md in it$/,
  ],
  [
    'an absurd number of chunks',
    withTimeline('{ "step": "provider-text", "text": "hi", "chunks": 1e15 }'),
    /:4: timeline\[0\]\.chunks: must be <= 1000$/,
  ],
  ...['__proto__', 'constructor', 'toString'].map(
    (dialect) =>
      [
        `the dialect ${dialect}`,
        `{ "format": "kit-session-script/1", "dialect": "${dialect}", "timeline": [] }`,
        new RegExp(`:1: dialect: "${dialect}" is not a dialect the kit knows`),
      ] as const,
  ),
  [
    'an unknown dialect',
    '{ "format": "kit-session-script/1", "dialect": "smoke-signals", "timeline": [] }',
    /:1: dialect: "smoke-signals" is not a dialect the kit knows/,
  ],
  [
    'a missing recording',
    withTimeline('{ "step": "provider-recording", "name": "nope" }'),
    /:4: timeline\[0\]\.name: recordings\/openai-chat\/nope: no recording named "nope"/,
  ],
  [
    'the wrong format',
    '{ "format": "kit-session-script/9", "timeline": [] }',
    /:1: format: must be "kit-session-script\/1"$/,
  ],
] as const) {
  test(`a script with ${what} is refused in one line naming file and field`, () => {
    assert.throws(
      script(text),
      (error: Error) => error.name === 'KitInputError' && expected.test(error.message) && !error.message.includes('\n'),
    );
  });
}

test('a malformed recording named by a script is reported with the recording and the script field', () => {
  const recordings = join(dir, 'recordings');
  mkdirSync(join(recordings, 'openai-chat'), { recursive: true });
  writeFileSync(join(recordings, 'openai-chat', 'broken.sse'), 'data: {"cut":\n\n');
  assert.throws(
    script(withTimeline('{ "step": "provider-recording", "name": "broken" }'), recordings),
    /s\d+\.json:4: timeline\[0\]\.name: .*broken\.sse frame 1 \(line 1\): data is not JSON/,
  );
});

test('a script file that is not there is named', () => {
  assert.throws(() => readSessionScript(join(dir, 'absent.json')), /absent\.json: no such file/);
});

test('the timeline is read step by step from the text: strings with brackets, escapes, numbers, and the last of two timelines', () => {
  const loaded = script(
    `{"timeline": [{"step": "settle"}], "format":"kit-session-script/1","title":"a ] title, \\"quoted\\" {",
      "runtime": {"now": "2026-01-15T09:00:00Z", "model": "m"},"timeline":[
        {"step":"provider-text","text":"}] \\\\\\" [{","chunks":2} ,{"step":"prompt","text":"\\u00e9 ü"},
        {"step": "provider-tool-calls", "calls": [{"name": "echo", "input": {"a": [1, -2.5e3, true, null, {}]}}]}]}`,
  )();
  assert.equal(loaded.title, 'a ] title, "quoted" {');
  assert.equal(loaded.timeline.length, 3);
  const steps = [...loaded.timeline];
  assert.deepEqual(steps, [
    { step: 'provider-text', text: '}] \\" [{', chunks: 2 },
    { step: 'prompt', text: 'é ü' },
    { step: 'provider-tool-calls', calls: [{ name: 'echo', input: { a: [1, -2500, true, null, {}] }, id: 'call_1' }] },
  ]);
  assert.deepEqual([...loaded.timeline], steps, 'the timeline can be read again, with the same IDs');
});

test('a step read on its own is held to the limits of the whole script: nesting, and JSON after it', () => {
  const nested = (depth: number) => `${'{"a":'.repeat(depth - 1)}{}${'}'.repeat(depth - 1)}`;
  const call = (depth: number) =>
    withTimeline(`{ "step": "provider-tool-calls", "calls": [{ "name": "echo", "input": ${nested(depth)} }] }`);
  // The file, the timeline, the step, its calls and the call nest 5 deep before the input.
  assert.equal(script(call(MAX_JSON_DEPTH - 5))().timeline.length, 1);
  assert.throws(
    script(call(MAX_JSON_DEPTH - 4)),
    new RegExp(`:4:\\d+: nested more than ${MAX_JSON_DEPTH} levels deep$`),
  );
  assert.throws(script(withTimeline('{ "step": "settle" } { "step": "settle" }')), /:4:26: not valid JSON/);
  assert.throws(script(withTimeline('{ "step": "settle", }')), /:4:25: not valid JSON/);
  assert.throws(script(`${withTimeline('{ "step": "settle" }')} {}`), /:7:2: not valid JSON/);
});
