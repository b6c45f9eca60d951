import type { Mutant } from './mutant.js';

export const inbox: Mutant[] = [
  {
    name: 'session create is not idempotent',
    file: 'session/session-store.ts',
    find: 'if (existing) return { session: existing, created: false };',
    replace: '',
    clauses: ['INB-01 (c)'],
  },
  {
    name: 'an exact retry admits again',
    file: 'inbox/inbox.ts',
    find: 'const existing = this.byId.get(admission.messageId);',
    replace: 'const existing = undefined as Row | undefined;',
    clauses: ['INB-02 (c)'],
  },
  {
    name: 'another delivery mode under the same ID is accepted',
    file: 'inbox/inbox.ts',
    find: "existing.delivery !== admission.delivery && 'delivery mode',",
    replace: '',
    clauses: ['INB-03 (b)'],
  },
  {
    name: 'resume false still wakes the session',
    file: 'runtime.ts',
    find: 'if (input.resume !== false) this.coordinator.wake(input.sessionId);',
    replace: 'this.coordinator.wake(input.sessionId);',
    clauses: ['INB-04 (d)'],
  },
  {
    name: 'queued prompts promote while the drain continues',
    file: 'runner/drain.ts',
    find: 'if (steers > 0 || requiresContinuation(deps.history.messages(sessionId))) return steers;',
    replace: 'if (steers > 0) return steers;',
    clauses: ['INB-05 (a)', 'INB-10 (a)'],
  },
  {
    name: 'promotion appends the message but leaves the inbox row pending',
    file: 'inbox/inbox-projection.ts',
    find: "'UPDATE inbox SET promoted_seq = ? WHERE message_id = ? AND promoted_seq IS NULL RETURNING prompt'",
    replace: "'SELECT prompt FROM inbox WHERE ? > 0 AND message_id = ?'",
    clauses: ['INB-06 (a)'],
  },
  {
    name: 'steers are promoted like queued prompts',
    file: 'runner/drain.ts',
    find: `  const steers = deps.inbox.promoteSteers(sessionId);
  if (steers > 0 || requiresContinuation(deps.history.messages(sessionId))) return steers;
  return deps.inbox.promoteNextQueued(sessionId);`,
    replace: `  if (requiresContinuation(deps.history.messages(sessionId))) return 0;
  return deps.inbox.promoteNextQueued(sessionId) || deps.inbox.promoteSteers(sessionId);`,
    clauses: ['INB-07 (a)', 'INB-08 (a)'],
  },
  {
    name: 'promotion does not reset the provider-turn allowance',
    file: 'runner/drain.ts',
    find: 'if (promoted > 0) turns = 0;',
    replace: '',
    clauses: ['INB-09 (a)'],
  },
  {
    name: 'all queued prompts promote at once',
    file: 'inbox/inbox.ts',
    find: "this.pending.all(sessionId, 'queue').slice(0, 1)",
    replace: "this.pending.all(sessionId, 'queue')",
    clauses: ['INB-11 (b)'],
  },
  {
    name: 'run starts a second drain beside the active one',
    file: 'runner/coordinator.ts',
    find: "return (this.chains.get(sessionId) ?? this.start(sessionId, 'run')).done;",
    replace: "return this.start(sessionId, 'run').done;",
    clauses: ['INB-12 (b)', 'RUN-07 (a)'],
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
    clauses: ['INB-13 (a)'],
  },
  {
    name: 'interrupt waits without stopping the drain',
    file: 'runner/coordinator.ts',
    find: `    chain.rerun = undefined;
    chain.controller.abort();
    await chain.done;`,
    replace: '    await chain.done;',
    clauses: ['INB-14 (b)'],
  },
  {
    name: 'a wake resumes like an explicit run',
    file: 'runtime.ts',
    find: 'this.sessions.get(sessionId);\n    this.coordinator.wake(sessionId);',
    replace: 'this.sessions.get(sessionId);\n    void this.coordinator.run(sessionId);',
    clauses: ['INB-15 (b)'],
  },
  {
    name: 'a wake continues history that still owes an answer',
    file: 'runner/drain.ts',
    find: "if (first && mode === 'wake' && !deps.inbox.hasPending(sessionId)) return 'idle';",
    replace:
      "if (first && mode === 'wake' && !deps.inbox.hasPending(sessionId) && !requiresContinuation(deps.history.messages(sessionId))) return 'idle';",
    also: [
      {
        file: 'runner/drain.ts',
        find: "if (first && mode === 'wake' && promoted === 0) return 'idle';",
        replace:
          "if (first && mode === 'wake' && promoted === 0 && !requiresContinuation(deps.history.messages(sessionId))) return 'idle';",
      },
    ],
    clauses: ['INB-15 (b)'],
  },
  {
    name: 'generated session IDs repeat',
    file: 'runtime.ts',
    find: "return this.sessions.create(input.id ?? this.ids.next('ses'),",
    replace: "return this.sessions.create(input.id ?? 'ses_default',",
    clauses: ['INB-01 (a)'],
  },
  {
    name: 'an exact retry is not reported as a repeat',
    file: 'inbox/inbox.ts',
    find: 'if (existing) return { row: this.sameAdmission(toRow(existing), admission), duplicate: true };',
    replace: 'if (existing) return { row: this.sameAdmission(toRow(existing), admission), duplicate: false };',
    clauses: ['INB-02 (c)'],
  },
  {
    name: 'a message ID reused in another session is accepted',
    file: 'inbox/inbox.ts',
    find: "      existing.sessionId !== admission.sessionId && 'session',\n",
    replace: '',
    clauses: ['INB-03 (c)'],
  },
  {
    name: 'an exact retry never wakes the session',
    file: 'runtime.ts',
    find: 'if (input.resume !== false) this.coordinator.wake(input.sessionId);\n    return {',
    replace: 'if (input.resume !== false && !duplicate) this.coordinator.wake(input.sessionId);\n    return {',
    clauses: ['INB-04 (b)'],
  },
  {
    name: 'an admitted prompt enters the history at admission',
    file: 'inbox/inbox-projection.ts',
    find: '      ).run(event.messageId, sessionId, JSON.stringify(event.prompt), event.delivery, seq);\n      return;',
    replace:
      "      ).run(event.messageId, sessionId, JSON.stringify(event.prompt), event.delivery, seq);\n      if (event.delivery === 'queue') insertMessage(db, sessionId, seq, `${event.messageId}_early`, 'user', 'completed', { prompt: event.prompt }, false);\n      return;",
    clauses: ['INB-05 (b)'],
  },
  {
    name: 'pending prompts are sent to the provider before they are promoted',
    file: 'runner/provider-turn.ts',
    find: '    history: modelHistory(deps.history.messages(session.id), deps.profile.checkpointForm(), deps.prunedMessage?.()),',
    replace: `    history: [
      ...modelHistory(deps.history.messages(session.id), deps.profile.checkpointForm(), deps.prunedMessage?.()),
      ...(deps as unknown as { inbox: { rows(id: string): { messageId: string; promotedSeq: number | null; prompt: never }[] } }).inbox
        .rows(session.id)
        .filter((row) => row.promotedSeq === null)
        .map((row) => ({ id: row.messageId, seq: 0, hidden: false, role: 'user' as const, prompt: row.prompt })),
    ],`,
    clauses: ['INB-05 (a)'],
  },

  {
    name: 'a steer waits until the drain no longer has to continue',
    file: 'runner/drain.ts',
    find: '  const steers = deps.inbox.promoteSteers(sessionId);\n  if (steers > 0 || requiresContinuation(deps.history.messages(sessionId))) return steers;',
    replace:
      '  if (requiresContinuation(deps.history.messages(sessionId))) return 0;\n  const steers = deps.inbox.promoteSteers(sessionId);\n  if (steers > 0) return steers;',
    clauses: ['INB-07 (a)'],
  },
  {
    name: 'pending steers promote one per boundary',
    kind: 'second occurrence',
    file: 'inbox/inbox.ts',
    find: "return this.promote(sessionId, this.pending.all(sessionId, 'steer'));",
    replace: "return this.promote(sessionId, this.pending.all(sessionId, 'steer').slice(0, 1));",
    clauses: ['INB-08 (a)'],
  },
  {
    // Restarted at every boundary, the allowance never runs out: from outside, a runtime without one.
    name: 'the allowance restarts at every boundary, so no drain ever fails for its turns',
    file: 'runner/drain.ts',
    find: '    if (promoted > 0) turns = 0;',
    replace: '    turns = 0;',
    clauses: ['RUN-02 (a)'],
  },
  {
    name: 'a queued prompt promotes with the steers at their boundary',
    file: 'runner/drain.ts',
    find: '  if (steers > 0 || requiresContinuation(deps.history.messages(sessionId))) return steers;',
    replace:
      '  if (steers > 0) return steers + deps.inbox.promoteNextQueued(sessionId);\n  if (requiresContinuation(deps.history.messages(sessionId))) return 0;',
    clauses: ['INB-10 (a)'],
  },
  {
    name: 'queued prompts promote newest first',
    kind: 'ordering in time',
    file: 'inbox/inbox.ts',
    find: "return this.promote(sessionId, this.pending.all(sessionId, 'queue').slice(0, 1));",
    replace: "return this.promote(sessionId, this.pending.all(sessionId, 'queue').slice(-1));",
    clauses: ['INB-11 (d)'],
  },
  {
    name: 'run on an idle session waits for input like a wake',
    file: 'runner/coordinator.ts',
    find: "    return (this.chains.get(sessionId) ?? this.start(sessionId, 'run')).done;",
    replace: "    return (this.chains.get(sessionId) ?? this.start(sessionId, 'wake')).done;",
    clauses: ['INB-12 (a)'],
  },
  {
    name: 'run makes an attempt only when it has input to promote',
    file: 'runner/drain.ts',
    find: "    const attemptAnyway = first && mode === 'run';",
    replace: "    const attemptAnyway = first && mode === 'run' && promoted > 0;",
    clauses: ['INB-12 (a)'],
  },
  {
    name: 'run during an active drain schedules another run after it',
    kind: 'second occurrence',
    file: 'runner/coordinator.ts',
    find: "    return (this.chains.get(sessionId) ?? this.start(sessionId, 'run')).done;",
    replace:
      "    const chain = this.chains.get(sessionId);\n    if (chain) {\n      chain.rerun = 'run';\n      return chain.done;\n    }\n    return this.start(sessionId, 'run').done;",
    clauses: ['INB-12 (b)'],
  },
  {
    name: 'a wake that arrives during a drain is remembered as a run',
    file: 'runner/coordinator.ts',
    find: "    if (chain) chain.rerun ??= 'wake';",
    replace: "    if (chain) chain.rerun ??= 'run';",
    clauses: ['INB-13 (b)', 'INB-13 (c)'],
  },
  {
    name: 'interrupting an unknown session is refused',
    file: 'runtime.ts',
    find: '  interrupt(sessionId: string): Promise<void> {\n    return this.coordinator.interrupt(sessionId);',
    replace:
      '  interrupt(sessionId: string): Promise<void> {\n    this.sessions.get(sessionId);\n    return this.coordinator.interrupt(sessionId);',
    clauses: ['INB-14 (e)'],
  },
  {
    name: 'a steer that arrives while calls run skips the calls not yet settled',
    file: 'runner/turn-projection.ts',
    find: "    const settle = (result: Omit<ToolResult, 'status'> & { status: ToolResult['status'] | 'interrupted' }) =>\n      log.append(this.sessionId, [{ type: 'tool.settled', assistantMessageId, callId: call.id, ...result }]);",
    replace: `    const skips: (() => void)[] = ((this as unknown as { skips?: (() => void)[] }).skips ??= []);
    let done = false;
    const settle = (result: Omit<ToolResult, 'status'> & { status: ToolResult['status'] | 'interrupted' }) => {
      if (done) return;
      done = true;
      log.append(this.sessionId, [{ type: 'tool.settled', assistantMessageId, callId: call.id, ...result }]);
      const { inbox } = this.deps as unknown as { inbox: { hasPending(id: string): boolean } };
      if (inbox.hasPending(this.sessionId)) for (const skip of skips.splice(0)) skip();
    };
    skips.push(() => settle({ status: 'error', output: 'Skipped because the user sent a new message' }));`,
    clauses: ['INB-07 (b)'],
  },
  {
    name: 'interrupt lets the provider stream run to its end and stops at the next boundary',
    file: 'runner/provider-turn.ts',
    find: '  const open = () => streamTurn(dialect, deps.provider, request, signal);',
    replace: '  const open = () => streamTurn(dialect, deps.provider, request, new AbortController().signal);',
    also: [
      {
        file: 'runner/coordinator.ts',
        find: '    chain.controller.abort();\n    await chain.done;',
        replace: '    chain.controller.abort();',
      },
    ],
    clauses: ['INB-14 (a)'],
  },
  {
    name: 'an interrupted provider request is reported as a provider error',
    file: 'runner/provider-turn.ts',
    find: "    if (signal.aborted) {\n      turn.fail('interrupted', 'Provider turn interrupted');\n      return 'interrupted';\n    }",
    replace: '',
    also: [
      {
        file: 'runner/provider-turn.ts',
        find: 'if (error instanceof StreamCut || error instanceof ProviderRejected || error instanceof MalformedResponse) {',
        replace:
          'if (error instanceof StreamCut || error instanceof ProviderRejected || error instanceof MalformedResponse || signal.aborted) {',
      },
    ],
    clauses: ['INB-14 (a)'],
  },
  {
    name: 'a wake goes ahead whenever the inbox holds anything, promotable or not',
    file: 'runner/drain.ts',
    find: "    if (first && mode === 'wake' && promoted === 0) return 'idle';\n",
    replace: '',
    clauses: ['INB-13 (a)'],
  },
  {
    name: 'a wake looks for pending queued prompts only',
    file: 'inbox/inbox.ts',
    find: "    return this.pending.all(sessionId, 'steer').length + this.pending.all(sessionId, 'queue').length > 0;",
    replace: "    return this.pending.all(sessionId, 'queue').length > 0;",
    clauses: ['INB-13 (b)'],
  },
  {
    // Only what the user wrote is compared: an attachment or metadata that differs passes as a retry.
    name: 'a reused message ID is compared by its text alone',
    kind: 'partial comparison',
    file: 'inbox/inbox.ts',
    find: "!isDeepStrictEqual(existing.prompt, admission.prompt) && 'prompt',",
    replace:
      "JSON.stringify(existing.prompt.parts.filter((p) => p.type === 'text')) !== JSON.stringify(admission.prompt.parts.filter((p) => p.type === 'text')) && 'prompt',",
    clauses: ['INB-03 (a)'],
  },
  {
    // The receipts of admitted IDs are remembered by the process, not by a key of the store: after a
    // restart a retry is admitted anew.
    name: 'the receipts of admitted message IDs live in process memory',
    kind: 'state held only in memory',
    file: 'inbox/inbox.ts',
    find: '      const existing = this.byId.get(admission.messageId);',
    replace: '      const existing = this.admitted.get(admission.messageId);',
    also: [
      {
        file: 'inbox/inbox.ts',
        find: '  private readonly byId;',
        replace: '  private readonly byId;\n  private readonly admitted = new Map<string, Row>();',
      },
      {
        file: 'inbox/inbox.ts',
        find: '      return { row: toRow(this.byId.get(messageId)!), duplicate: false };',
        replace:
          '      this.admitted.set(messageId, this.byId.get(messageId)!);\n      return { row: toRow(this.byId.get(messageId)!), duplicate: false };',
      },
      { file: 'inbox/inbox-projection.ts', find: '  message_id TEXT PRIMARY KEY,', replace: '  message_id TEXT,' },
    ],
    clauses: ['INB-04 (a)'],
  },
  {
    name: 'a promoted prompt keeps the sequence of its admission',
    kind: 'promoted item loses its sequence',
    file: 'inbox/inbox-projection.ts',
    find: "RETURNING prompt',\n        )\n        .get(seq, event.messageId);",
    replace:
      "RETURNING prompt, admitted_seq',\n        )\n        .get(seq, event.messageId) as { prompt: string; admitted_seq: number } | undefined;",
    also: [
      {
        file: 'inbox/inbox-projection.ts',
        find: "insertMessage(db, sessionId, seq, event.messageId, 'user', 'completed', JSON.parse(row.prompt));",
        replace:
          "insertMessage(db, sessionId, row.admitted_seq, event.messageId, 'user', 'completed', JSON.parse(row.prompt));",
      },
    ],
    // A steer admitted while the provider streams lands before that answer: not after it, at its boundary.
    clauses: ['RUN-05 (a)', 'INB-07 (a)'],
  },
  {
    name: 'the inbox reports a promoted prompt under the sequence of its admission',
    kind: 'promoted item loses its sequence',
    file: 'inbox/inbox.ts',
    find: '    promotedSeq: row.promoted_seq,',
    replace: '    promotedSeq: row.promoted_seq === null ? null : row.admitted_seq,',
    clauses: ['INB-06 (a)'],
  },
  {
    // History numbers its messages by their place in the list, not by the event that appended them.
    name: 'history numbers a promoted prompt by its place, not by its promotion',
    kind: 'promoted item loses its sequence',
    file: 'history/history-store.ts',
    find: 'function toMessage(row: MessageRow): SessionMessage {\n  const body = JSON.parse(row.body);\n  const base = { id: row.id, seq: row.seq,',
    replace:
      'function toMessage(row: MessageRow, place: number): SessionMessage {\n  const body = JSON.parse(row.body);\n  const base = { id: row.id, seq: place + 1,',
    clauses: ['INB-06 (c)'],
  },
  {
    // Admitted IDs are remembered by the process; the store ignores a second insert of the row, so
    // after a restart an exact retry is admitted again as new.
    name: 'the message IDs already admitted are remembered in process memory only',
    kind: 'state held only in memory',
    file: 'inbox/inbox.ts',
    find: '  private readonly all;',
    replace: '  private readonly all;\n  private readonly admitted = new Set<string>();',
    also: [
      {
        file: 'inbox/inbox.ts',
        find: '      const existing = this.byId.get(admission.messageId);\n      if (existing) return { row: this.sameAdmission(toRow(existing), admission), duplicate: true };',
        replace:
          '      if (this.admitted.has(admission.messageId))\n        return { row: this.sameAdmission(toRow(this.byId.get(admission.messageId)!), admission), duplicate: true };',
      },
      {
        file: 'inbox/inbox.ts',
        find: '      return { row: toRow(this.byId.get(messageId)!), duplicate: false };',
        replace:
          '      this.admitted.add(messageId);\n      return { row: toRow(this.byId.get(messageId)!), duplicate: false };',
      },
      {
        file: 'inbox/inbox-projection.ts',
        find: "'INSERT INTO inbox (message_id, session_id, prompt, delivery, admitted_seq) VALUES (?, ?, ?, ?, ?)',",
        replace:
          "'INSERT OR IGNORE INTO inbox (message_id, session_id, prompt, delivery, admitted_seq) VALUES (?, ?, ?, ?, ?)',",
      },
    ],
    clauses: ['INB-02 (d)'],
  },
  {
    name: 'the receipt of a prompt without an ID names a second generated ID, not the one stored',
    kind: 'facts only the protocol reports',
    file: 'runtime.ts',
    find: '      messageId: row.messageId,',
    replace: "      messageId: input.id ?? this.ids.next('msg'),",
    clauses: ['INB-02 (a)'],
  },
  {
    // The drain's cleanup after an abort ends in the same turn of the event loop unless something
    // holds the drain where it cannot stop at once: only a kit source's gated read does.
    name: 'interrupt returns as soon as it signals the drain, before the drain has cleaned up',
    kind: 'facts only the protocol reports',
    needs: 'kit-sources',
    file: 'runner/coordinator.ts',
    find: '    chain.rerun = undefined;\n    chain.controller.abort();\n    await chain.done;',
    replace: '    chain.rerun = undefined;\n    chain.controller.abort();',
    clauses: ['INB-14 (b)'],
  },
  {
    // Pending rows read back ordered by message ID, as runtimes whose generated IDs are time-ordered
    // do: caller-supplied IDs that sort against admission order promote out of order.
    name: 'pending inbox rows promote in the order of their message IDs',
    kind: 'ordering in time',
    file: 'inbox/inbox.ts',
    find: "'SELECT * FROM inbox WHERE session_id = ? AND delivery = ? AND promoted_seq IS NULL ORDER BY admitted_seq',",
    replace:
      "'SELECT * FROM inbox WHERE session_id = ? AND delivery = ? AND promoted_seq IS NULL ORDER BY message_id',",
    clauses: ['INB-08 (b)', 'INB-11 (c)'],
  },
  {
    name: 'steers pending at one boundary are promoted newest first',
    kind: 'ordering in time',
    file: 'inbox/inbox.ts',
    find: "      rows.map((row) => ({ type: 'prompt.promoted', messageId: row.message_id })),",
    replace: "      [...rows].reverse().map((row) => ({ type: 'prompt.promoted', messageId: row.message_id })),",
    clauses: ['INB-08 (b)'],
  },
  {
    // The sessions with pending input are known to the process that admitted it: after a restart a
    // wake finds nothing to promote, and neither does an exact retry's wake.
    name: 'the sessions with pending input are remembered in process memory only',
    kind: 'state held only in memory',
    file: 'inbox/inbox.ts',
    find: '  private readonly all;',
    replace: '  private readonly all;\n  private readonly admittedHere = new Set<string>();',
    also: [
      {
        file: 'inbox/inbox.ts',
        find: "this.log.append(admission.sessionId, [{ type: 'prompt.admitted', messageId, delivery, prompt }]);",
        replace:
          "this.log.append(admission.sessionId, [{ type: 'prompt.admitted', messageId, delivery, prompt }]);\n      this.admittedHere.add(admission.sessionId);",
      },
      {
        file: 'inbox/inbox.ts',
        find: 'hasPending(sessionId: string): boolean {',
        replace: 'hasPending(sessionId: string): boolean {\n    if (!this.admittedHere.has(sessionId)) return false;',
      },
    ],
    clauses: ['INB-14 (d)', 'INB-04 (a)'],
  },
  {
    name: 'an exact repeat of an admission wakes the session, resume false or not',
    kind: 'second occurrence',
    file: 'runtime.ts',
    find: 'if (input.resume !== false) this.coordinator.wake(input.sessionId);',
    replace: 'if (input.resume !== false || duplicate) this.coordinator.wake(input.sessionId);',
    clauses: ['INB-04 (d)'],
  },
  {
    name: 'a repeat with resume false wakes nothing only while the process that held it runs',
    kind: 'state held only in memory',
    file: 'runtime.ts',
    find: 'if (input.resume !== false) this.coordinator.wake(input.sessionId);',
    replace:
      'const heldHere = ((this as unknown as { heldHere?: Set<string> }).heldHere ??= new Set<string>());\n    if (input.resume !== false || (duplicate && !heldHere.has(row.messageId))) this.coordinator.wake(input.sessionId);\n    if (input.resume === false) heldHere.add(row.messageId);',
    clauses: ['INB-04 (d)'],
  },
  {
    name: 'each prompt promoted at a boundary restarts the allowance: several at once add up',
    kind: 'counting by status',
    file: 'runner/drain.ts',
    find: 'if (promoted > 0) turns = 0;',
    replace: 'if (promoted > 0) turns = -MAX_PROVIDER_TURNS * (promoted - 1);',
    clauses: ['INB-09 (c)'],
  },
  {
    name: 'each further prompt promoted at one boundary buys one more turn',
    kind: 'edge value',
    file: 'runner/drain.ts',
    find: 'if (promoted > 0) turns = 0;',
    replace: 'if (promoted > 0) turns = 1 - promoted;',
    clauses: ['INB-09 (c)'],
  },
  {
    name: 'the restarts owed for prompts promoted together are spent one per boundary',
    kind: 'second occurrence',
    file: 'runner/drain.ts',
    find: 'if (promoted > 0) turns = 0;',
    replace:
      'owedRestarts += promoted;\n    if (owedRestarts > 0) {\n      turns = 0;\n      owedRestarts -= 1;\n    }',
    also: [
      { file: 'runner/drain.ts', find: '  let turns = 0;\n', replace: '  let turns = 0;\n  let owedRestarts = 0;\n' },
    ],
    clauses: ['INB-09 (c)'],
  },
  {
    name: 'a supplied session ID the runtime does not know is replaced by a generated one',
    file: 'runtime.ts',
    find: "return this.sessions.create(input.id ?? this.ids.next('ses'),",
    replace:
      "return this.sessions.create(input.id !== undefined && this.sessions.find(input.id) ? input.id : this.ids.next('ses'),",
    clauses: ['INB-01 (b)'],
  },
  {
    name: 'a session created without an ID gets an ID derived from its location',
    kind: 'identity in the wrong scope',
    file: 'runtime.ts',
    find: "return this.sessions.create(input.id ?? this.ids.next('ses'),",
    replace: "return this.sessions.create(input.id ?? `ses_${Buffer.from(input.location).toString('hex').slice(-16)}`,",
    clauses: ['INB-01 (a)'],
  },
  {
    // The receipt still names the first admission; only what is stored shows the second write.
    name: 'an exact repeat of an admission stores the prompt again, as pending',
    kind: 'second occurrence',
    file: 'inbox/inbox.ts',
    find: 'if (existing) return { row: this.sameAdmission(toRow(existing), admission), duplicate: true };',
    replace:
      "if (existing) {\n        const row = this.sameAdmission(toRow(existing), admission);\n        this.log.append(admission.sessionId, [{ type: 'prompt.admitted', messageId: row.messageId, delivery: row.delivery, prompt: row.prompt }]);\n        return { row, duplicate: true };\n      }",
    also: [
      {
        file: 'inbox/inbox-projection.ts',
        find: "'INSERT INTO inbox (message_id, session_id, prompt, delivery, admitted_seq) VALUES (?, ?, ?, ?, ?)'",
        replace:
          "'INSERT OR REPLACE INTO inbox (message_id, session_id, prompt, delivery, admitted_seq) VALUES (?, ?, ?, ?, ?)'",
      },
    ],
    clauses: ['INB-02 (b)'],
  },
  {
    name: 'the session is woken before its admission is checked, so a refused one still wakes it',
    kind: 'ordering in time',
    file: 'runtime.ts',
    find: '    this.sessions.get(input.sessionId);\n    const { row, duplicate } = this.inbox.admit({',
    replace:
      '    this.sessions.get(input.sessionId);\n    if (input.resume !== false) this.coordinator.wake(input.sessionId);\n    const { row, duplicate } = this.inbox.admit({',
    also: [
      {
        file: 'runtime.ts',
        find: '    });\n    if (input.resume !== false) this.coordinator.wake(input.sessionId);\n',
        replace: '    });\n',
      },
    ],
    clauses: ['INB-03 (d)'],
  },
  {
    name: 'a reused message ID is compared by the first part of its prompt only',
    kind: 'partial comparison',
    file: 'inbox/inbox.ts',
    find: "!isDeepStrictEqual(existing.prompt, admission.prompt) && 'prompt',",
    replace: "!isDeepStrictEqual(existing.prompt.parts[0], admission.prompt.parts[0]) && 'prompt',",
    clauses: ['INB-03 (a)'],
  },
  {
    name: '`resume: false` is honoured only on a repeat: a first admission always wakes the session',
    file: 'runtime.ts',
    find: 'if (input.resume !== false) this.coordinator.wake(input.sessionId);',
    replace: 'if (input.resume !== false || !duplicate) this.coordinator.wake(input.sessionId);',
    clauses: ['INB-04 (c)'],
  },
  {
    name: '`resume: false` holds queued prompts only: a steer wakes the session anyway',
    file: 'runtime.ts',
    find: 'if (input.resume !== false) this.coordinator.wake(input.sessionId);',
    replace: "if (input.resume !== false || delivery === 'steer') this.coordinator.wake(input.sessionId);",
    clauses: ['INB-04 (c)'],
  },
  {
    name: 'promoting new input adds a fresh allowance to what was left of the old one',
    kind: 'edge value',
    file: 'runner/drain.ts',
    find: 'if (promoted > 0) turns = 0;',
    replace: 'if (promoted > 0) turns -= MAX_PROVIDER_TURNS;',
    clauses: ['INB-09 (b)'],
  },
  {
    name: 'only input promoted at the first boundary of a drain restarts the allowance',
    kind: 'second occurrence',
    file: 'runner/drain.ts',
    find: 'if (promoted > 0) turns = 0;',
    replace: 'if (first && promoted > 0) turns = 0;',
    clauses: ['INB-09 (a)'],
  },
  {
    name: 'the restarted allowance counts from one turn below zero',
    kind: 'edge value',
    file: 'runner/drain.ts',
    find: 'if (promoted > 0) turns = 0;',
    replace: 'if (promoted > 0) turns = -1;',
    clauses: ['INB-09 (b)'],
  },
  {
    // The rerun a wake collected during the drain promotes one, so only a second queued prompt shows it.
    name: 'a queued prompt is promoted only when a drain starts, not when a drain would go idle',
    file: 'runner/drain.ts',
    find: 'const promoted = promoteAtBoundary(deps, sessionId);',
    replace: 'const promoted = first ? promoteAtBoundary(deps, sessionId) : deps.inbox.promoteSteers(sessionId);',
    clauses: ['INB-11 (a)'],
  },
  {
    name: 'queued prompts promote two at a time',
    file: 'inbox/inbox.ts',
    find: "return this.promote(sessionId, this.pending.all(sessionId, 'queue').slice(0, 1));",
    replace: "return this.promote(sessionId, this.pending.all(sessionId, 'queue').slice(0, 2));",
    clauses: ['INB-11 (b)'],
  },
  {
    name: 'queued prompts are taken from the newest admission',
    kind: 'ordering in time',
    file: 'inbox/inbox.ts',
    find: '    this.all = db.prepare<[string], Row>(',
    replace: `    const pendingOf = this.pending;
    this.pending = { all: (id: string, delivery: Delivery) => (delivery === 'queue' ? pendingOf.all(id, delivery).reverse() : pendingOf.all(id, delivery)) } as typeof pendingOf;
    this.all = db.prepare<[string], Row>(`,
    clauses: ['INB-11 (c)'],
  },
  {
    name: 'whether the drain must continue is judged without its tool results',
    file: 'runner/drain.ts',
    find: '  if (steers > 0 || requiresContinuation(deps.history.messages(sessionId))) return steers;',
    replace:
      "  if (steers > 0 || requiresContinuation(deps.history.messages(sessionId).filter((m) => m.role !== 'tool'))) return steers;",
    clauses: ['INB-11 (d)'],
  },
  {
    name: 'a wake collected by the interrupted drain is delivered once its cleanup is over',
    file: 'runner/coordinator.ts',
    find: '    chain.rerun = undefined;\n    chain.controller.abort();\n    await chain.done;',
    replace:
      '    const rerun = chain.rerun;\n    chain.rerun = undefined;\n    chain.controller.abort();\n    await chain.done;\n    if (rerun) this.wake(sessionId);',
    clauses: ['INB-14 (c)'],
  },
  {
    name: 'an interrupt ends by waking the session for what is pending',
    file: 'runtime.ts',
    find: '  interrupt(sessionId: string): Promise<void> {\n    return this.coordinator.interrupt(sessionId);',
    replace:
      '  interrupt(sessionId: string): Promise<void> {\n    const busy = this.coordinator.busy(sessionId);\n    return this.coordinator.interrupt(sessionId).then(() => {\n      if (busy) this.coordinator.wake(sessionId);\n    });',
    clauses: ['INB-14 (c)'],
  },
  {
    name: 'an interrupt consumes the pending inbox rows into the history',
    file: 'runtime.ts',
    find: '  interrupt(sessionId: string): Promise<void> {\n    return this.coordinator.interrupt(sessionId);',
    replace: `  interrupt(sessionId: string): Promise<void> {
    return this.coordinator.interrupt(sessionId).then(() => {
      if (!this.sessions.find(sessionId)) return;
      const pending = this.inbox.rows(sessionId).filter((row) => row.promotedSeq === null);
      if (pending.length > 0) this.log.append(sessionId, pending.map((row) => ({ type: 'prompt.promoted' as const, messageId: row.messageId })));
    });`,
    clauses: ['INB-14 (d)'],
  },
  {
    // Only what this process dispatched counts as possibly dispatched: a restart forgets it.
    name: 'a wake takes an unanswered turn for undispatched unless this process sent it',
    kind: 'state held only in memory',
    file: 'runner/drain.ts',
    find: "    if (first && mode === 'wake' && promoted === 0) return 'idle';\n",
    replace:
      "    const dispatchedHere = ((deps as unknown as { dispatchedHere?: Set<string> }).dispatchedHere ??= new Set<string>());\n    if (first && mode === 'wake' && promoted === 0 && dispatchedHere.has(sessionId)) return 'idle';\n    dispatchedHere.add(sessionId);\n",
    clauses: ['INB-15 (a)'],
  },
  {
    // The rows admitted by an earlier process are taken for stale: only this process's admissions are pending.
    name: 'pending prompts are those admitted since the process started',
    kind: 'state held only in memory',
    file: 'inbox/inbox.ts',
    find: "    this.pending = db.prepare<[string, Delivery], Row>(\n      'SELECT * FROM inbox WHERE session_id = ? AND delivery = ? AND promoted_seq IS NULL ORDER BY admitted_seq',\n    );",
    replace:
      "    const startedAt = db.prepare<[], { seq: number }>('SELECT COALESCE(MAX(admitted_seq), 0) AS seq FROM inbox').get()!.seq;\n    this.pending = db.prepare<[string, Delivery], Row>(\n      `SELECT * FROM inbox WHERE session_id = ? AND delivery = ? AND promoted_seq IS NULL AND admitted_seq > ${startedAt} ORDER BY admitted_seq`,\n    );",
    clauses: ['INB-06 (b)'],
  },
  {
    // History kept beside the durable state, in a table of the connection: a new process starts with none.
    name: 'the session history lives in a temporary table, gone when the process ends',
    kind: 'state held only in memory',
    file: 'history/history-projection.ts',
    find: 'CREATE TABLE IF NOT EXISTS messages (\n  id TEXT PRIMARY KEY,\n  session_id TEXT NOT NULL REFERENCES sessions(id),',
    replace: 'CREATE TEMP TABLE IF NOT EXISTS messages (\n  id TEXT PRIMARY KEY,\n  session_id TEXT NOT NULL,',
    clauses: ['INB-06 (c)'],
  },
  {
    // The messages of an earlier process are taken for another run's: history shows only this process's.
    name: 'the history read holds only the messages appended since the process started',
    file: 'history/history-store.ts',
    find: "    this.list = db.prepare<[string], MessageRow>(\n      'SELECT id, seq, role, hidden, status, body FROM messages WHERE session_id = ? ORDER BY seq',\n    );\n    this.newest = db.prepare<[string, number], MessageRow>(\n      'SELECT id, seq, role, hidden, status, body FROM messages WHERE session_id = ? ORDER BY seq DESC LIMIT ?',\n    );",
    replace:
      "    const startedAt = db.prepare<[], { seq: number }>('SELECT COALESCE(MAX(seq), 0) AS seq FROM messages').get()!.seq;\n    this.list = db.prepare<[string], MessageRow>(\n      `SELECT id, seq, role, hidden, status, body FROM messages WHERE session_id = ? AND seq > ${startedAt} ORDER BY seq`,\n    );\n    this.newest = db.prepare<[string, number], MessageRow>(\n      `SELECT id, seq, role, hidden, status, body FROM messages WHERE session_id = ? AND seq > ${startedAt} ORDER BY seq DESC LIMIT ?`,\n    );",
    clauses: ['INB-06 (c)'],
  },
];
