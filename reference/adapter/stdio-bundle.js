#!/usr/bin/env node
// The reference's stdio adapter (stdio.ts) started without a TypeScript loader: loading tsx and
// transpiling costs several times the runtime's own start, paid by every scenario over stdio.
// It runs a bundle of stdio.ts, rebuilt when any file of the reference is newer than the bundle.
import { mkdirSync, readdirSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { dirname, join } from 'node:path';

const reference = fileURLToPath(new URL('..', import.meta.url));
const bundle = fileURLToPath(new URL('../../.kit/build/reference-stdio.mjs', import.meta.url));

function newestSource(dir) {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestSource(path) : statSync(path).mtimeMs);
  }
  return newest;
}

function builtAt() {
  try {
    return statSync(bundle).mtimeMs;
  } catch {
    return -1;
  }
}

if (builtAt() < newestSource(reference)) {
  const { build } = await import('esbuild');
  const { outputFiles } = await build({
    entryPoints: [join(reference, 'adapter', 'stdio.ts')],
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    packages: 'external',
    write: false,
    outfile: bundle,
  });
  // Adapters starting together may all rebuild; each renames a whole file into place.
  mkdirSync(dirname(bundle), { recursive: true });
  const partial = `${bundle}.${process.pid}`;
  writeFileSync(partial, outputFiles[0].contents);
  renameSync(partial, bundle);
}

await import(pathToFileURL(bundle).href);
