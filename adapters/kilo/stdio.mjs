#!/usr/bin/env node
// Kilo CLI's V2 runner behind session-runtime-adapter/1 on stdio (src/stdio.ts), started without a
// TypeScript loader, as OpenCode's adapter is: a bundle of src/stdio.ts, rebuilt when any of its
// sources is newer.
import { fileURLToPath } from 'node:url';
import { runBundled } from '../../harness/build/module-bundle.js';

const here = (path) => fileURLToPath(new URL(path, import.meta.url));
await runBundled({
  name: 'kilo-stdio',
  entry: here('src/stdio.ts'),
  roots: [
    here('src'),
    here('../opencode/shared/v2'),
    here('../opencode/shared/server'),
    here('../../harness/adapter'),
    here('../../harness/protocol'),
  ],
});
