import { serveStdio } from '../../../harness/adapter/stdio-serve.mjs';
import { createAdapter } from './adapter.js';

/** OpenCode's V2 runner behind session-runtime-adapter/1 on stdio. */
serveStdio(createAdapter());
