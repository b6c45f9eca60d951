import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const reference = dirname(fileURLToPath(import.meta.url));

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sources(path);
    return /\.[jt]s$/.test(entry.name) && !entry.name.endsWith('.test.ts') ? [path] : [];
  });
}

const files = sources(reference).map((path) => ({ path, text: readFileSync(path, 'utf8') }));

test('the reference runtime imports nothing from the kit', () => {
  const outside = files.flatMap(({ path, text }) =>
    [...text.matchAll(/(?:from|import)\s*\(?\s*'(\.[^']*)'/g)]
      .map((match) => match[1]!)
      .filter((specifier) => relative(reference, resolve(dirname(path), specifier)).startsWith('..'))
      .map((specifier) => `${relative(reference, path)}: ${specifier}`),
  );
  assert.deepEqual(outside, []);
});

test('only the profile module looks at a profile by name', () => {
  const named = files
    .filter(({ path }) => relative(reference, path) !== 'profile.ts')
    .filter(({ text }) => /[=!]==\s*'(core|checkpoint|continuation|sol)'/.test(text))
    .map(({ path }) => relative(reference, path));
  assert.deepEqual(named, []);
});
