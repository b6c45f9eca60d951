import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MAX_JSON_DEPTH, readJsonInput } from './json-input.js';

const dir = mkdtempSync(join(tmpdir(), 'kit-json-input-test-'));
after(() => rmSync(dir, { recursive: true, force: true }));

test('a FIFO is refused without being opened, so reading never blocks', () => {
  const fifo = join(dir, 'pipe.json');
  execFileSync('mkfifo', [fifo]);
  assert.throws(() => readJsonInput(fifo), /pipe\.json: is not a regular file$/);
});

test('a directory is named as one', () => {
  assert.throws(() => readJsonInput(dir), /: is a directory, not a file$/);
});

test('nesting deeper than the kit reads is refused where it starts, before anything recurses into it', () => {
  const file = join(dir, 'deep.json');
  writeFileSync(file, `{\n  "timeline": ${'['.repeat(200_000)}${']'.repeat(200_000)}\n}`);
  assert.throws(
    () => readJsonInput(file),
    new RegExp(`deep\\.json:2:${14 + MAX_JSON_DEPTH}: nested more than ${MAX_JSON_DEPTH} levels deep$`),
  );
});

test('a syntax error deep in a large document is placed by line and column', () => {
  const file = join(dir, 'large.json');
  const lines = Array.from({ length: 100_000 }, (_, i) => `  { "n": ${i} },`);
  lines[76_543] = '  { "n": 76543 ,, },';
  writeFileSync(file, `[\n${lines.join('\n')}\n  {}\n]`);
  assert.throws(() => readJsonInput(file), /large\.json:76545:\d+: not valid JSON/);
});
