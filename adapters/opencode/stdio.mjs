#!/usr/bin/env node
// OpenCode's V2 runner behind session-runtime-adapter/1 on stdio (src/stdio.ts), started without a TypeScript
// loader: registering tsx and transpiling the adapter's modules costs a few hundred milliseconds of
// CPU on every adapter start. It runs a bundle of src/stdio.ts, rebuilt when any of its sources is newer.
import { fileURLToPath } from 'node:url';
import { runBundled } from '../../harness/build/module-bundle.js';

const here = (path) => fileURLToPath(new URL(path, import.meta.url));
await runBundled({
  name: 'opencode-stdio',
  entry: here('src/stdio.ts'),
  roots: [
    here('src'),
    here('shared/v2'),
    here('shared/server'),
    here('../../harness/adapter'),
    here('../../harness/protocol'),
  ],
});
