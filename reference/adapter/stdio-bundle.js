#!/usr/bin/env node
// The reference's stdio adapter (stdio.ts) started without a TypeScript loader: loading tsx and
// transpiling costs several times the runtime's own start, paid by every scenario over stdio.
// It runs a bundle of stdio.ts, rebuilt when any file of the reference is newer than the bundle.
import { fileURLToPath } from 'node:url';
import { cachedBundle } from '../../harness/build/module-bundle.js';

const reference = fileURLToPath(new URL('..', import.meta.url));
const bundle = await cachedBundle({
  name: 'reference-stdio',
  entry: fileURLToPath(new URL('stdio.ts', import.meta.url)),
  roots: [reference],
});
if (bundle) await import(bundle);
else {
  const { register } = await import('tsx/esm/api');
  register();
  await import('./stdio.ts');
}
