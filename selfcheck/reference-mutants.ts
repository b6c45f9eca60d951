/**
 * Deliberately broken variants of the reference runtime. Each breaks one rule the way real
 * runtimes do; the suite must fail for every rule listed against it. A mutant whose text no
 * longer matches the reference is itself reported, so this list cannot silently rot.
 */
export interface Mutant {
  name: string;
  /** File under `reference/`. */
  file: string;
  find: string;
  replace: string;
  /** Rules whose scenarios must fail against this mutant. */
  breaks: string[];
}

export const mutants: Mutant[] = [
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
    breaks: ['INB-12', 'RUN-07'],
  },
  {
    name: 'wake behaves like run',
    file: 'runner/drain.ts',
    find: `    if (first && mode === 'wake' && promoted === 0) return 'idle';
    const attemptAnyway = first && mode === 'run';`,
    replace: '    const attemptAnyway = first;',
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
  {
    name: 'a tool call is recorded only after it ran',
    file: 'runner/provider-turn.ts',
    find: `    log.append(this.sessionId, [
      { type: 'tool.called', assistantMessageId, callId: call.id, name: call.name, input: call.input },
    ]);`,
    replace: '',
    breaks: ['RUN-01'],
  },
  {
    name: 'the turn limit is off by one',
    file: 'runner/drain.ts',
    find: 'if (turns >= MAX_PROVIDER_TURNS) {',
    replace: 'if (turns > MAX_PROVIDER_TURNS) {',
    breaks: ['RUN-02'],
  },
  {
    name: 'tool settlements are keyed by call ID alone',
    file: 'history/message.ts',
    find: 'return `${assistantMessageId}/${callId}`;',
    replace: 'return `${assistantMessageId.length > 0 ? "" : assistantMessageId}${callId}`;',
    breaks: ['RUN-03'],
  },
  {
    name: 'a tool abandoned by a dead process is left running',
    file: 'runner/recovery.ts',
    find: "if (message.role === 'tool' && message.status === 'running') {",
    replace: "if (message.role === 'tool' && message.status === 'never') {",
    breaks: ['RUN-04'],
  },
  {
    name: 'history is ordered by message ID',
    file: 'history/history-store.ts',
    find: "'SELECT id, seq, role, hidden, status, body FROM messages WHERE session_id = ? ORDER BY seq'",
    replace: "'SELECT id, seq, role, hidden, status, body FROM messages WHERE session_id = ? ORDER BY id'",
    breaks: ['RUN-05'],
  },
  {
    name: 'replay skips the event right after the cursor',
    file: 'runtime.ts',
    find: 'let cursor = after;',
    replace: 'let cursor = after + 1;',
    breaks: ['RUN-06'],
  },
  {
    name: 'text fragments are stored as durable events',
    file: 'runner/provider-turn.ts',
    find: 'this.text += chunk.delta;',
    replace: "this.text += chunk.delta;\n        this.deps.log.append(this.sessionId, [{ type: 'session.moved', location: this.location }]);",
    breaks: ['RUN-06'],
  },
  {
    name: 'a moved session keeps its old location',
    file: 'runner/drain.ts',
    find: "if (deps.sessions.get(sessionId).location !== location) return 'moved';",
    replace: '',
    breaks: ['RUN-08'],
  },
];
