import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { keptTexts } from './kept-texts.js';

test('a file to skip is skipped whatever path names it, a link to its directory included', () => {
  const root = mkdtempSync(join(tmpdir(), 'kit-kept-'));
  try {
    const store = join(root, 'store');
    mkdirSync(join(store, 'outputs'), { recursive: true });
    writeFileSync(join(store, 'outputs', 'managed.txt'), 'complete output');
    writeFileSync(join(store, 'session.json'), '{"raw": "complete output"}');
    symlinkSync(join(store, 'outputs'), join(root, 'linked'));
    const files = (skip: string[]) => keptTexts([store], new Set(skip)).map(({ file }) => file);
    assert.deepEqual(files([]).sort(), [join(store, 'outputs', 'managed.txt'), join(store, 'session.json')]);
    assert.deepEqual(files([join(root, 'linked', 'managed.txt')]), [join(store, 'session.json')]);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});
