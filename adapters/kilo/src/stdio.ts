import { serveStdio } from '../../../harness/adapter/stdio-serve.mjs';
import { createAdapter } from '../../opencode/shared/v2/adapter.js';
import { KILO_SERVER, KILO_TEXTS } from './runtime.js';

/** Kilo CLI's V2 runner (OpenCode's, forked) behind session-runtime-adapter/1 on stdio. */
serveStdio(createAdapter({ server: KILO_SERVER, name: 'kilo', texts: KILO_TEXTS }));
