import type { Mutant } from './mutant.js';

export const retry: Mutant[] = [
  {
    name: 'Retry-After is ignored',
    profile: 'sol',
    file: 'runner/retry-policy.ts',
    find: '    if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);\n',
    replace: '',
    breaks: ['RTY-01'],
  },
  {
    name: 'retry delays keep doubling past 30 s',
    profile: 'sol',
    file: 'runner/retry-policy.ts',
    find: 'Math.min(BASE_RETRY_DELAY_MS * 2 ** (retry - 1), MAX_RETRY_DELAY_MS)',
    replace: 'BASE_RETRY_DELAY_MS * 2 ** (retry - 1)',
    breaks: ['RTY-01'],
  },
  {
    name: 'every refusal is retried',
    profile: 'sol',
    file: 'runner/retry-policy.ts',
    find: 'error instanceof ProviderRejected && (error.status === 429 || error.status >= 500)',
    replace: 'error instanceof ProviderRejected',
    breaks: ['RTY-02'],
  },
  {
    name: 'repeated identical tool calls run without asking',
    profile: 'sol',
    file: 'runner/doom-loop.ts',
    find: 'return this.recent.length === DOOM_LOOP_THRESHOLD && this.recent.every((earlier) => earlier === call);',
    replace: 'return false;',
    breaks: ['RTY-03'],
  },
  {
    name: 'approving a doom loop keeps counting',
    profile: 'sol',
    file: 'runner/tool-authorization.ts',
    find: '      this.doomLoop.reset();\n',
    replace: '',
    breaks: ['RTY-03'],
  },
  {
    name: 'a processing session takes an inbox-free prompt',
    profile: 'sol',
    file: 'runtime.ts',
    find: "    if (this.coordinator.busy(input.sessionId)) throw new RuntimeError('busy', `session ${input.sessionId} is busy`);\n",
    replace: '',
    breaks: ['RTY-04'],
  },
];
