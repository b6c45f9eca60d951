#!/usr/bin/env node
// `kit-reference-adapter`: the reference runtime's stdio adapter (reference/adapter/stdio.ts),
// started without a TypeScript loader: loading tsx and transpiling costs several times the
// runtime's own start, paid by every scenario over stdio. It runs a bundle of stdio.ts, rebuilt
// when any file of the reference is newer. It belongs to the kit, since the reference imports
// nothing from the kit.
import { fileURLToPath } from 'node:url';
import { runBundled } from './module-bundle.js';

const reference = fileURLToPath(new URL('../../reference', import.meta.url));
await runBundled({
  name: 'reference-stdio',
  entry: fileURLToPath(new URL('../../reference/adapter/stdio.ts', import.meta.url)),
  roots: [reference],
});
