import type { Mutant } from './mutant.js';

export const inbox: Mutant[] = [
  {
    name: 'session create is not idempotent',
    file: 'session/session-store.ts',
    find: 'if (existing) return { session: existing, created: false };',
    replace: '',
    breaks: ['INB-01'],
  },
  {
    name: 'an exact retry admits again',
    file: 'inbox/inbox.ts',
    find: 'const existing = this.byId.get(admission.messageId);',
    replace: 'const existing = undefined as Row | undefined;',
    breaks: ['INB-02'],
  },
  {
    name: 'another delivery mode under the same ID is accepted',
    file: 'inbox/inbox.ts',
    find: "existing.delivery !== admission.delivery && 'delivery mode',",
    replace: '',
    breaks: ['INB-03'],
  },
  {
    name: 'resume false still wakes the session',
    file: 'runtime.ts',
    find: 'if (input.resume !== false) this.coordinator.wake(input.sessionId);',
    replace: 'this.coordinator.wake(input.sessionId);',
    breaks: ['INB-04'],
  },
  {
    name: 'queued prompts promote while the drain continues',
    file: 'runner/drain.ts',
    find: 'if (steers > 0 || requiresContinuation(deps.history.messages(sessionId))) return steers;',
    replace: 'if (steers > 0) return steers;',
    breaks: ['INB-05', 'INB-10'],
  },
  {
    name: 'promotion appends the message but leaves the inbox row pending',
    file: 'store/projector.ts',
    find: "'UPDATE inbox SET promoted_seq = ? WHERE message_id = ? AND promoted_seq IS NULL RETURNING prompt'",
    replace: "'SELECT prompt FROM inbox WHERE ? > 0 AND message_id = ?'",
    breaks: ['INB-06'],
  },
  {
    name: 'steers are promoted like queued prompts',
    file: 'runner/drain.ts',
    find: `  const steers = deps.inbox.promoteSteers(sessionId);
  if (steers > 0 || requiresContinuation(deps.history.messages(sessionId))) return steers;
  return deps.inbox.promoteNextQueued(sessionId);`,
    replace: `  if (requiresContinuation(deps.history.messages(sessionId))) return 0;
  return deps.inbox.promoteNextQueued(sessionId) || deps.inbox.promoteSteers(sessionId);`,
    breaks: ['INB-07', 'INB-08'],
  },
  {
    name: 'promotion does not reset the provider-turn allowance',
    file: 'runner/drain.ts',
    find: 'if (promoted > 0) turns = 0;',
    replace: '',
    breaks: ['INB-09'],
  },
  {
    name: 'all queued prompts promote at once',
    file: 'inbox/inbox.ts',
    find: "this.pending.all(sessionId, 'queue').slice(0, 1)",
    replace: "this.pending.all(sessionId, 'queue')",
    breaks: ['INB-11'],
  },
  {
    name: 'run starts a second drain beside the active one',
    file: 'runner/coordinator.ts',
    find: "return (this.chains.get(sessionId) ?? this.start(sessionId, 'run')).done;",
    replace: "return this.start(sessionId, 'run').done;",
    breaks: ['INB-12'],
  },
  {
    name: 'wake behaves like run',
    file: 'runner/drain.ts',
    find: `    if (first && mode === 'wake' && promoted === 0) return 'idle';
    const attemptAnyway = first && mode === 'run';`,
    replace: '    const attemptAnyway = first;',
    also: [
      {
        file: 'runner/drain.ts',
        find: "    if (first && mode === 'wake' && !deps.inbox.hasPending(sessionId)) return 'idle';",
        replace: '',
      },
    ],
    breaks: ['INB-13'],
  },
  {
    name: 'interrupt waits without stopping the drain',
    file: 'runner/coordinator.ts',
    find: `    chain.rerun = undefined;
    chain.controller.abort();
    await chain.done;`,
    replace: '    await chain.done;',
    breaks: ['INB-14'],
  },
];
