import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { kitPath } from '../harness/kit-root.js';

test('a one-off npx command names the kit by its package, not the registry package named kit', () => {
  const { name } = JSON.parse(readFileSync(kitPath('package.json'), 'utf8')) as { name: string };
  const readme = readFileSync(kitPath('README.md'), 'utf8');
  const oneOffs = readme.split('\n').filter((line) => /\bnpx (--package|-p)\b/.test(line));
  assert.ok(oneOffs.length > 0, 'the README gives no one-off command');
  for (const line of oneOffs) assert.match(line, new RegExp(`npx (--package|-p)[ =]${name} kit `), line);
});
