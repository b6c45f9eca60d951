import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { KitInputError } from '../input-error.js';
import { loadRecording, parseHttp, parseSse } from './recording.js';

test('every shipped recording loads', () => {
  for (const dialect of readdirSync('recordings')) {
    for (const file of readdirSync(`recordings/${dialect}`).filter((name) => /\.(sse|http)$/.test(name))) {
      const response = loadRecording('recordings', dialect, file.replace(/\.(sse|http)$/, ''));
      assert.ok(response.frames.length > 0, file);
    }
  }
});

test('a frame whose data is not JSON is named by file, frame and line', () => {
  const text = 'data: {"ok":true}\n\ndata: {"broken":\n\n';
  assert.throws(
    () => parseSse('recordings/openai-chat/bad.sse', text),
    (error: unknown) =>
      error instanceof KitInputError &&
      error.message.startsWith('recordings/openai-chat/bad.sse frame 2 (line 3): data is not JSON'),
  );
});

test('a line that is no SSE field is refused', () => {
  assert.throws(
    () => parseSse('x.sse', 'data: {}\n\nhello there\n\n'),
    /x\.sse frame 2 \(line 3\): "hello there" is not an SSE field/,
  );
});

test('a recording of more frames than a turn streams is refused', () => {
  assert.throws(
    () => parseSse('x.sse', 'data: {}\n\n'.repeat(10_001)),
    /x\.sse: the recording holds more than 10000 frames, more than a turn streams/,
  );
});

test('an empty recording is refused', () => {
  assert.throws(() => parseSse('x.sse', '\n\n'), /x\.sse: the recording holds no frames/);
  assert.throws(
    () => parseSse('x.sse', ': keep-alive\n\n: more\n\n'),
    /x\.sse: the recording holds only comments, no event/,
  );
});

test('a missing recording names what was looked for', () => {
  assert.throws(() => loadRecording('recordings', 'openai-chat', 'nope'), /no recording named "nope"/);
});

test('an HTTP recording keeps status, headers and body', () => {
  const response = parseHttp('x.http', 'HTTP/1.1 429 Too Many Requests\nretry-after: 3\n\n{"error":{}}\n');
  assert.equal(response.status, 429);
  assert.equal(response.headers['retry-after'], '3');
  assert.equal(response.frames.join(''), '{"error":{}}\n');
});

test('an HTTP recording without a status line is refused at line 1', () => {
  assert.throws(() => parseHttp('x.http', 'hello\n\n{}'), /x\.http line 1: expected a status line/);
});

test('an HTTP recording with a status no provider answers with is refused at line 1', () => {
  for (const status of ['100', '199', '600', '999']) {
    assert.throws(
      () => parseHttp('x.http', `HTTP/1.1 ${status} Odd\n\n{}`),
      new RegExp(`x\\.http line 1: status ${status} is not one a provider answers with`),
    );
  }
});

test('a recording that is a directory is refused naming it', (t) => {
  const root = mkdtempSync(join(tmpdir(), 'kit-recording-test-'));
  t.after(() => rmSync(root, { recursive: true, force: true }));
  mkdirSync(join(root, 'openai-chat', 'odd.sse'), { recursive: true });
  assert.throws(() => loadRecording(root, 'openai-chat', 'odd'), /odd\.sse: is a directory, not a file$/);
});

test("an absolute name is a recording of its own, read where it points, not under the kit's folder", (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'kit-recording-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  writeFileSync(join(dir, 'mine.sse'), 'data: {"ok":true}\n\n');
  assert.equal(loadRecording('recordings', 'openai-chat', join(dir, 'mine')).frames.length, 1);
  assert.throws(
    () => loadRecording('recordings', 'openai-chat', join(dir, 'missing')),
    (error: unknown) =>
      error instanceof KitInputError && error.message.includes(`${join(dir, 'missing')}: no recording named`),
  );
});
