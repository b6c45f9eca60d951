import { serveStdio } from '../../../harness/adapter/stdio-serve.mjs';
import { createAdapter } from '../shared/v2/adapter.js';
import { OPENCODE_SERVER, OPENCODE_TEXTS } from './runtime.js';

/** OpenCode's V2 runner behind session-runtime-adapter/1 on stdio. */
// No route of the V2 runner goes on without new input: its forced drain is reached by none.
serveStdio(
  createAdapter({ server: OPENCODE_SERVER, name: 'opencode', texts: OPENCODE_TEXTS, absent: ['session.run'] }),
);
