/**
 * Deliberately broken variants of the reference runtime. Each breaks one rule the way real
 * runtimes do; the suite must fail for every rule listed against it. A mutant whose text no
 * longer matches the reference is itself reported, so this list cannot silently rot.
 */
export interface Edit {
  /** File under `reference/`. */
  file: string;
  find: string;
  replace: string;
}

export interface Mutant extends Edit {
  name: string;
  /** Further edits of the same defect, elsewhere. */
  also?: Edit[];
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
  {
    name: 'duplicate source keys compose',
    file: 'context/context-source.ts',
    find: 'if (seen.has(source.key)) throw new ContextCompositionError(`duplicate context source key: ${source.key}`);',
    replace: '',
    breaks: ['CTX-01'],
  },
  {
    name: "a contributor's sources are sorted by key",
    file: 'context/context-registry.ts',
    find: 'return combine(produced.flat());',
    replace: 'return combine(produced.flat().sort((a, b) => a.key.localeCompare(b.key)));',
    breaks: ['CTX-02'],
  },
  {
    name: 'contributors combine in registration order',
    file: 'context/context-registry.ts',
    find: 'const ordered = [...this.contributions.keys()].sort();',
    replace: 'const ordered = [...this.contributions.keys()];',
    breaks: ['CTX-03'],
  },
  {
    name: 'every boundary restates every source',
    file: 'context/system-context.ts',
    find: 'if (canonicalJson(current.value) !== canonicalJson(stored.value)) {',
    replace: 'if (current.value !== undefined) {',
    breaks: ['CTX-04'],
  },
  {
    name: 'an update restates the old value too',
    file: 'context/system-context.ts',
    find: 'parts.push(source.update(source.decode(stored.value), observation));',
    replace: "parts.push(`${source.baseline(source.decode(stored.value))}\\n${source.update(source.decode(stored.value), observation)}`);",
    breaks: ['CTX-05'],
  },
  {
    name: 'combined changes lose their stable order',
    file: 'context/system-context.ts',
    find: "return { kind: 'updated', text: parts.join('\\n\\n'), snapshot: next };",
    replace: "return { kind: 'updated', text: parts.reverse().join('\\n\\n'), snapshot: next };",
    breaks: ['CTX-06'],
  },
  {
    name: 'an unavailable source forgets its admitted value',
    file: 'context/system-context.ts',
    find: 'if (stored) next[source.key] = stored;',
    replace: '',
    breaks: ['CTX-07'],
  },
  {
    name: 'a first rendering is not remembered',
    file: 'context/system-context.ts',
    find: `      parts.push(source.baseline(observation));
      next[source.key] = entry(source, observation);`,
    replace: '      parts.push(source.baseline(observation));',
    breaks: ['CTX-08', 'CTX-10'],
  },
  {
    name: 'the removal text is not re-rendered when a new value is admitted',
    file: 'context/system-context.ts',
    find: '      next[source.key] = current;',
    replace: '      next[source.key] = { ...current, removal: stored.removal };',
    breaks: ['CTX-09'],
  },
  {
    name: 'sources of a removed contributor linger',
    file: 'context/system-context.ts',
    find: 'removed.push(...Object.keys(snapshot).filter((key) => !registered.has(key)));',
    replace: '',
    breaks: ['CTX-11'],
  },
  {
    name: 'changes are detected on text, not on encoded values',
    file: 'context/system-context.ts',
    find: 'if (canonicalJson(current.value) !== canonicalJson(stored.value)) {',
    replace: 'if (JSON.stringify(current.value) !== JSON.stringify(stored.value)) {',
    breaks: ['CTX-12'],
  },
  {
    name: 'the first observation is also announced as a system message',
    file: 'runner/context-boundary.ts',
    find: "deps.log.append(session.id, [{ type: 'context.initialized', baseline: parts.join('\\n\\n'), snapshot }]);\n    return new ContextBoundary(deps, session, sources, true);",
    replace: "deps.log.append(session.id, [{ type: 'context.initialized', baseline: parts.join('\\n\\n'), snapshot: {} }]);\n    return new ContextBoundary(deps, session, sources, false);",
    breaks: ['EPO-01'],
  },
  {
    name: 'an unavailable source is left out of the first baseline',
    file: 'context/system-context.ts',
    find: "if (unavailable.length > 0) return { kind: 'blocked', unavailable };\n  return { kind: 'ready', baseline: render(observed) };",
    replace: "return { kind: 'ready', baseline: render(observed) };",
    breaks: ['EPO-02'],
  },
  {
    name: 'prompts are promoted before the epoch exists',
    file: 'runner/drain.ts',
    find: '    let context: ContextBoundary;',
    replace: '    promoteAtBoundary(deps, sessionId);\n    let context: ContextBoundary;',
    breaks: ['EPO-03'],
  },
  {
    name: 'the baseline is rendered afresh for every turn',
    file: 'runner/context-boundary.ts',
    find: 'if (deps.epochs.find(session.id)) return new ContextBoundary(deps, session, sources, false);',
    replace: '',
    breaks: ['EPO-04'],
  },
  {
    name: 'the sent baseline is not the stored one',
    file: 'runner/provider-turn.ts',
    find: 'baseline: [baseline],',
    replace: "baseline: [`${baseline}\\n`],",
    breaks: ['EPO-05'],
  },
  {
    name: 'a move keeps the old epoch',
    file: 'session/session-store.ts',
    find: "[{ type: 'session.moved', location, projectRoot }, { type: 'context.cleared' }]",
    replace: "[{ type: 'session.moved', location, projectRoot }]",
    breaks: ['EPO-07'],
  },
  {
    name: 'a switch of agent or model starts a new epoch',
    file: 'session/session-store.ts',
    find: "this.log.append(id, [{ type: 'session.selected', ...selection }]);",
    replace: "this.log.append(id, [{ type: 'session.selected', ...selection }, { type: 'context.cleared' }]);",
    breaks: ['EPO-08', 'AGT-02'],
  },
  {
    name: 'context changes are admitted before the promoted input',
    file: 'runner/drain.ts',
    find: '    const promoted = promoteAtBoundary(deps, sessionId);',
    replace: '    await context.admitChanges();\n    const promoted = promoteAtBoundary(deps, sessionId);',
    breaks: ['MCS-01'],
  },
  {
    name: 'the system message sent differs from the one stored',
    file: 'provider/openai-chat.ts',
    find: "      return [{ role: 'system', content: message.text }];",
    replace: "      return [{ role: 'system', content: `${message.text}.` }];",
    breaks: ['MCS-02'],
  },
  {
    name: 'the snapshot advances in its own transaction before the message',
    file: 'runner/context-boundary.ts',
    find: '      const messageId = this.deps.ids.next(\'msg\');',
    replace: "      this.deps.log.append(this.session.id, [{ type: 'context.initialized', baseline: epoch.baseline, snapshot: result.snapshot }]);\n      const messageId = this.deps.ids.next('msg');",
    breaks: ['MCS-03'],
  },
  {
    name: 'the snapshot never advances, so changes are announced again',
    file: 'store/projector.ts',
    find: "        .prepare('UPDATE context_epochs SET snapshot = ? WHERE session_id = ?')",
    replace: "        .prepare('UPDATE context_epochs SET snapshot = snapshot WHERE ? IS NOT NULL AND session_id = ?')",
    breaks: ['MCS-04'],
  },
  {
    name: 'system messages are not hidden from the user transcript',
    file: 'store/projector.ts',
    find: "insertMessage(db, sessionId, seq, event.messageId, 'system', 'completed', { text: event.text }, true);",
    replace: "insertMessage(db, sessionId, seq, event.messageId, 'system', 'completed', { text: event.text }, false);",
    breaks: ['MCS-05'],
  },
  {
    name: 'system messages go as user turns although the provider has a system role',
    file: 'provider/openai-chat.ts',
    find: "      return [{ role: 'system', content: message.text }];",
    replace: "      return [{ role: 'user', content: message.text }];",
    breaks: ['MCS-06'],
  },
  {
    name: 'the date follows UTC, not the host calendar',
    file: 'context/location-contexts.ts',
    find: "dateSource(clock, () => hostEnv().TZ || 'UTC'),",
    replace: "dateSource(clock, () => 'UTC'),",
    breaks: ['MCS-07'],
  },
  {
    name: 'project files are ordered root first',
    file: 'context/sources/instructions.ts',
    find: 'candidates.push(...(await projectCandidates(scope)));',
    replace: 'candidates.push(...(await projectCandidates(scope)).reverse());',
    breaks: ['INS-01'],
  },
  {
    name: 'changed instructions do not supersede the old set',
    file: 'context/sources/instructions.ts',
    find: 'update: (_previous, files) => `${SUPERSESSION}\\n\\n${render(files)}`,',
    replace: 'update: (_previous, files) => render(files),',
    breaks: ['INS-02', 'INS-03'],
  },
  {
    name: 'an update leaves out the first remaining file',
    file: 'context/sources/instructions.ts',
    find: 'update: (_previous, files) => `${SUPERSESSION}\\n\\n${render(files)}`,',
    replace: 'update: (_previous, files) => `${SUPERSESSION}\\n\\n${render(files.slice(1))}`,',
    breaks: ['INS-03'],
  },
  {
    name: 'removed instructions are never revoked',
    file: 'context/sources/instructions.ts',
    find: '    removal: () => REVOCATION,\n',
    replace: '',
    breaks: ['INS-04'],
  },
  {
    name: 'OPENCODE_DISABLE_PROJECT_CONFIG is ignored',
    file: 'context/location-contexts.ts',
    find: 'projectConfigDisabled: () => Boolean(hostEnv().OPENCODE_DISABLE_PROJECT_CONFIG),',
    replace: 'projectConfigDisabled: () => false,',
    breaks: ['INS-05'],
  },
  {
    name: 'links out of the project root are followed',
    file: 'context/sources/instructions.ts',
    find: 'if (root !== undefined && !within(await realpath(root), real)) return Absent;',
    replace: '',
    breaks: ['INS-06'],
  },
  {
    name: 'discovery walks above the project root',
    file: 'context/sources/instructions.ts',
    find: '    if (dir === root) return dirs;',
    replace: "    if (dir === dirname(root)) return dirs;",
    breaks: ['INS-06'],
  },
  {
    name: 'an unreadable file counts as removed',
    file: 'context/sources/instructions.ts',
    find: `  } catch {
    return Unavailable;
  }`,
    replace: `  } catch {
    return Absent;
  }`,
    breaks: ['INS-07'],
  },
  {
    name: 'the model selection is ignored until the runtime restarts',
    file: 'runner/provider-turn.ts',
    find: 'const model = session.model ?? deps.provider.model;',
    replace: 'const model = deps.provider.model;',
    breaks: ['AGT-01', 'EPO-08'],
  },
  {
    name: 'skill guidance shows skill bodies',
    file: 'context/sources/skills.ts',
    find: 'const skills = permitted().map(({ name, description }) => ({ name, description }));',
    replace: 'const skills = permitted().map(({ name, description, body }) => ({ name, description: `${description} ${body}` }));',
    breaks: ['AGT-03'],
  },
  {
    name: 'an answered permission request is re-checked under the current agent',
    file: 'runner/provider-turn.ts',
    find: "      if (!approved) return { status: 'error', output: 'The user declined this tool call' };",
    replace: `      if (!approved) return { status: 'error', output: 'The user declined this tool call' };
      const sessions = (this.deps as unknown as { sessions: { get(id: string): { agent: string | null } } }).sessions;
      if (agents.toolPermission(agents.agent(sessions.get(this.sessionId).agent), call.name) === 'deny') {
        return { status: 'error', output: 'denied' };
      }`,
    breaks: ['AGT-04'],
  },
  {
    name: 'a session without an agent gets an empty policy',
    file: 'agents/agent-catalog.ts',
    find: 'const resolved = name ?? DEFAULT_AGENT;',
    replace: "const resolved = name ?? '';",
    breaks: ['AGT-05'],
  },
  {
    name: 'reasoning is replayed with its signature to any model',
    file: 'provider/anthropic-messages.ts',
    find: 'const signature = message.model === model ? reasoning?.signature : undefined;',
    replace: 'const signature = reasoning?.signature;',
    breaks: ['AGT-06'],
  },
];
