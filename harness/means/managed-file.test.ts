import { test } from 'node:test';
import assert from 'node:assert/strict';
import { placeOfLine } from './managed-file.js';

const numbered = (count: number) => Array.from({ length: count }, (_, i) => `line ${i + 1}`).join('\n');

test('a line of the raw output is where the managed file holds it: its own place, or later in a wrapped output', () => {
  assert.equal(placeOfLine(numbered(400), 17, 'line 17'), 17);
  assert.equal(
    placeOfLine(`Command: awk\nDirectory: (root)\nOutput: line 1\n${numbered(400).slice(7)}`, 17, 'line 17'),
    19,
  );
});

test('a file without the line, or with it only before its place in the raw output, does not hold it', () => {
  assert.equal(placeOfLine(numbered(16), 17, 'line 17'), undefined);
  assert.equal(placeOfLine('line 17\nline 2', 17, 'line 17'), undefined);
  assert.equal(placeOfLine('', 1, 'line 1'), undefined);
});
