import type { Mutant } from './mutant.js';

export const epochs: Mutant[] = [
  {
    // The baseline stands where the model reads it, as a user message at the head of the
    // conversation, not in the system field: EPO-01 fails on where it is, while the rules about
    // what it holds judge it there.
    name: 'the baseline goes as a leading user message instead of the system field',
    file: 'provider/openai-chat.ts',
    find: "          ...request.baseline.map((content) => ({ role: 'system', content })),",
    replace: "          ...request.baseline.map((content) => ({ role: 'user', content })),",
    clauses: ['EPO-01 (c)'],
  },
  {
    name: 'the first observation is also announced as a system message',
    file: 'runner/context-boundary.ts',
    find: 'parts: systemParts(deps.profile, initialization.baseline), snapshot, provider }]);\n    return new ContextBoundary(deps, session, sources, true);',
    replace:
      'parts: systemParts(deps.profile, initialization.baseline), snapshot: {}, provider }]);\n    return new ContextBoundary(deps, session, sources, false);',
    clauses: ['EPO-01 (c)'],
  },
  {
    name: 'an unavailable source is left out of the first baseline',
    file: 'context/system-context.ts',
    find: "if (unavailable.length > 0) return { kind: 'blocked', unavailable };\n  return { kind: 'ready', baseline: render(design, observed) };",
    replace: "return { kind: 'ready', baseline: render(design, observed) };",
    clauses: ['EPO-02 (a)'],
  },
  {
    name: 'prompts are promoted before the epoch exists',
    kind: 'ordering in time',
    file: 'runner/drain.ts',
    find: '    let context: ContextBoundary;',
    replace: '    promoteAtBoundary(deps, sessionId);\n    let context: ContextBoundary;',
    clauses: ['EPO-02 (d)', 'EPO-03 (a)'],
  },
  {
    name: 'steers are promoted before the context is prepared',
    kind: 'ordering in time',
    file: 'runner/drain.ts',
    find: '    let context: ContextBoundary;',
    replace: '    const early = deps.inbox.promoteSteers(sessionId);\n    let context: ContextBoundary;',
    also: [
      {
        file: 'runner/drain.ts',
        find: '    const promoted = promoteAtBoundary(deps, sessionId);',
        replace: '    const promoted = early + promoteAtBoundary(deps, sessionId);',
      },
    ],
    clauses: ['EPO-03 (a)'],
  },
  {
    name: 'at the first boundary of a drain, changes are admitted before the input',
    kind: 'second occurrence',
    file: 'runner/drain.ts',
    find: '    const promoted = promoteAtBoundary(deps, sessionId);',
    replace: '    if (first) await context.admitChanges();\n    const promoted = promoteAtBoundary(deps, sessionId);',
    clauses: ['EPO-03 (b)'],
  },
  {
    name: 'the baseline is rendered afresh for every turn',
    file: 'runner/context-boundary.ts',
    find: 'if (epoch && !epoch.replacementPending) return new ContextBoundary(deps, session, sources, false);',
    replace: '',
    clauses: ['EPO-04 (a)'],
  },
  {
    name: 'the sent baseline is not the stored one',
    kind: 'facts only the protocol reports',
    file: 'runner/provider-turn.ts',
    find: '    baseline,\n    history: modelHistory',
    replace: '    baseline: baseline.map((part) => `${part}\\n`),\n    history: modelHistory',
    clauses: ['EPO-05 (a)'],
  },
  {
    name: 'a move keeps the old epoch',
    file: 'session/session-store.ts',
    find: "[{ type: 'session.moved', location, projectRoot }, { type: 'context.cleared' }]",
    replace: "[{ type: 'session.moved', location, projectRoot }]",
    clauses: ['EPO-07 (b)'],
  },
  {
    name: 'a switch of agent or model starts a new epoch',
    file: 'session/session-store.ts',
    find: "      ...(endsEpoch ? [{ type: 'context.replacement-requested' as const }] : []),",
    replace: "      { type: 'context.replacement-requested' as const },",
    clauses: ['EPO-08 (a)', 'AGT-02 (b)'],
  },
  {
    name: 'a completed compaction keeps the old baseline',
    file: 'context/epoch-projection.ts',
    find: "    case 'compaction.ended':\n      db.prepare('UPDATE context_epochs SET replacement_pending = 1 WHERE session_id = ?').run(sessionId);\n",
    replace: "    case 'compaction.ended':\n",
    clauses: ['EPO-06 (a)'],
  },
  {
    name: 'system messages of the old epoch stay in model history',
    file: 'history/model-history.ts',
    find: "m.role !== 'compaction' && m.seq > checkpoint.cutSeq && !(m.role === 'system' && m.seq < checkpoint.seq),",
    replace: "m.role !== 'compaction' && (m.seq > checkpoint.cutSeq || m.role === 'system'),",
    clauses: ['EPO-06 (c)'],
  },
  {
    name: 'a replacement baseline leaves out unavailable admitted sources',
    file: 'context/system-context.ts',
    find: "  if (unavailable.length > 0) return { kind: 'replacement-blocked', unavailable };",
    replace: '',
    clauses: ['EPO-09 (a)'],
  },
  {
    name: 'a never-admitted source blocks the replacement baseline',
    file: 'context/system-context.ts',
    find: 'observed.filter((o) => o.observation === Unavailable && snapshot[o.source.key])',
    replace: 'observed.filter((o) => o.observation === Unavailable)',
    clauses: ['EPO-09 (c)'],
  },
  {
    name: 'the environment names the project root as the working directory',
    file: 'context/sources/environment.ts',
    find: 'load: async () => ({ workingDirectory: location, projectRoot,',
    replace: 'load: async () => ({ workingDirectory: projectRoot, projectRoot,',
    clauses: ['EPO-10 (a)'],
  },
  {
    name: 'the date is not a source of the baseline',
    file: 'context/location-contexts.ts',
    find: "      dateSource(clock, () => hostEnv().TZ || 'UTC'),\n",
    replace: '',
    clauses: ['EPO-10 (b)'],
  },
  {
    name: 'a moved session keeps its old epoch while the destination cannot load',
    file: 'session/session-store.ts',
    find: "{ type: 'session.moved', location, projectRoot }, { type: 'context.cleared' }",
    replace: "{ type: 'session.moved', location, projectRoot }, { type: 'context.replacement-requested' }",
    also: [
      {
        file: 'runner/context-boundary.ts',
        find: "    if (replacement.kind === 'replacement-blocked') {\n      throw new ContextBlocked('context-unavailable', `context unavailable: ${replacement.unavailable.join(', ')}`);\n    }",
        replace:
          "    if (replacement.kind === 'replacement-blocked') return new ContextBoundary(deps, session, sources, false);",
      },
    ],
    // The turn it sends carries neither location's sources: RUN-08 holds, EPO-02 does not.
    clauses: ['EPO-02 (b)'],
  },
  {
    name: 'the first snapshot leaves out the removal texts',
    file: 'context/system-context.ts',
    find: '    parts.push({ key: source.key, text: source.baseline(observation) });\n    snapshot[source.key] = entry(design, source, observation);',
    replace:
      '    parts.push({ key: source.key, text: source.baseline(observation) });\n    snapshot[source.key] = { value: comparable(design, source, observation) };',
    clauses: ['EPO-01 (b)'],
  },
  {
    name: 'a blocked first observation stores an epoch of the sources that loaded',
    file: 'runner/context-boundary.ts',
    find: "    if (initialization.kind === 'blocked') {",
    replace:
      "    if (initialization.kind === 'blocked') {\n      deps.log.append(session.id, [{ type: 'context.initialized', parts: [], snapshot: {} }]);",
    clauses: ['EPO-02 (b)'],
  },
  {
    name: 'the baseline is kept in process memory, so a restart renders another',
    kind: 'state held only in memory',
    file: 'runner/context-boundary.ts',
    find: '    if (epoch && !epoch.replacementPending) return new ContextBoundary(deps, session, sources, false);',
    replace:
      '    const begun = begunEpochs.get(deps.epochs) ?? new Set<string>();\n    begunEpochs.set(deps.epochs, begun);\n    const known = begun.has(session.id);\n    begun.add(session.id);\n    if (epoch && !epoch.replacementPending && known) return new ContextBoundary(deps, session, sources, false);',
    also: [
      {
        file: 'runner/context-boundary.ts',
        find: '/** Why the context stops a drain before anything is sent. */',
        replace:
          'const begunEpochs = new WeakMap<object, Set<string>>();\n/** Why the context stops a drain before anything is sent. */',
      },
    ],
    clauses: ['EPO-04 (b)', 'EPO-05 (b)'],
  },
  {
    name: 'the epoch view joins the baseline parts otherwise than they were sent',
    profile: 'checkpoint',
    file: 'context/epoch-store.ts',
    find: "      baseline: parts.join('\\n\\n'),",
    replace: "      baseline: parts.join('\\n'),",
    clauses: ['EPO-05 (a)'],
  },
  {
    name: 'a move asks for a replacement baseline instead of ending the epoch',
    file: 'session/session-store.ts',
    find: "[{ type: 'session.moved', location, projectRoot }, { type: 'context.cleared' }]",
    replace: "[{ type: 'session.moved', location, projectRoot }, { type: 'context.replacement-requested' }]",
    clauses: ['EPO-07 (a)', 'EPO-07 (d)'],
  },
  {
    name: 'the epoch view trims the baseline it kept',
    kind: 'facts only the protocol reports',
    file: 'context/epoch-store.ts',
    find: "      baseline: parts.join('\\n\\n'),",
    replace: "      baseline: parts.join('\\n\\n').trimEnd(),",
    clauses: ['EPO-05 (a)'],
  },
  {
    name: 'a location whose path begins with a served location shares its context registry',
    kind: 'containment by prefix',
    file: 'context/location-contexts.ts',
    find: `const id = \`\${projectRoot}\\0\${location}\`;
    let registry = this.registries.get(id);`,
    replace: `const id = \`\${projectRoot}\\0\${location}\`;
    let registry = this.registries.get(id);
    if (!registry)
      for (const [known, served] of this.registries) {
        if (location.startsWith(known.split('\\0')[1]!)) {
          registry = served;
          break;
        }
      }`,
    clauses: ['EPO-07 (b)'],
  },
  {
    name: 'a model switch is held in process memory only, so after a restart the old model is asked',
    kind: 'state held only in memory',
    file: 'session/session-projection.ts',
    find: `if (event.model !== undefined)
        db.prepare('UPDATE sessions SET model = ? WHERE id = ?').run(event.model, sessionId);`,
    replace: '',
    also: [
      {
        file: 'session/session-store.ts',
        find: 'private readonly insert;',
        replace: `private readonly insert;
  private readonly models = new Map<string, string | null>();`,
      },
      {
        file: 'session/session-store.ts',
        find: 'model: row.model,',
        replace: 'model: this.models.has(row.id) ? this.models.get(row.id)! : row.model,',
      },
      {
        file: 'session/session-store.ts',
        find: `select(id: string, selection: { agent?: string | null; model?: string | null }, endsEpoch: boolean): void {
    this.get(id);`,
        replace: `select(id: string, selection: { agent?: string | null; model?: string | null }, endsEpoch: boolean): void {
    this.get(id);
    if (selection.model !== undefined) this.models.set(id, selection.model);`,
      },
    ],
    clauses: ['EPO-08 (c)'],
  },
  {
    // find instead of findLast: the epoch start is taken from the first compaction.
    name: 'earlier-epoch system messages are cut at the first compaction, not the newest',
    kind: 'second occurrence',
    file: 'history/model-history.ts',
    find: `if (!checkpoint) return messages as ModelMessage[];`,
    replace: `if (!checkpoint) return messages as ModelMessage[];
  const epochStart = messages.find((m) => m.role === 'compaction')!.seq;`,
    also: [
      {
        file: 'history/model-history.ts',
        find: `!(m.role === 'system' && m.seq < checkpoint.seq),`,
        replace: `!(m.role === 'system' && m.seq < epochStart),`,
      },
    ],
    clauses: ['EPO-06 (c)'],
  },
  {
    // Location contexts cached per project: a move inside one project keeps the old location's sources.
    name: 'location context registries are cached by project root only',
    kind: 'stale cache',
    file: 'context/location-contexts.ts',
    find: 'const id = `${projectRoot}\\0${location}`;',
    replace: 'const id = projectRoot;',
    clauses: ['EPO-07 (b)'],
  },
  // EPO-08 (d): a provider switch keeps the epoch.
  {
    name: 'a switch to another provider starts a new epoch',
    needs: 'kit-sources',
    file: 'runner/context-boundary.ts',
    find: '    deps.profile.endsEpochOnSwitch() && epoch.provider !== undefined && epoch.provider !== providerOf(deps.provider)',
    replace: '    epoch.provider !== undefined && epoch.provider !== providerOf(deps.provider)',
    clauses: ['EPO-08 (d)'],
  },
  {
    // One part per contributor: the first source of each stands for all of them.
    name: 'the first baseline renders only the first source of each contributor',
    file: 'context/system-context.ts',
    find: "  return { kind: 'ready', baseline: render(design, observed) };\n}\n\n/**\n * Compares",
    replace:
      "  const contributor = (o: Observed) => o.source.key.split('.')[0];\n  return { kind: 'ready', baseline: render(design, observed.filter((o, i) => observed.findIndex((p) => contributor(p) === contributor(o)) === i)) };\n}\n\n/**\n * Compares",
    clauses: ['EPO-01 (a)'],
  },
  {
    name: 'the first baseline renders each source as an update',
    file: 'context/system-context.ts',
    find: '    if (observation === Unavailable || observation === Absent) continue;\n    parts.push({ key: source.key, text: source.baseline(observation) });',
    replace:
      '    if (observation === Unavailable || observation === Absent) continue;\n    parts.push({ key: source.key, text: source.update(observation, observation) });',
    clauses: ['EPO-01 (a)'],
  },
  {
    name: 'the first turn leaves the snapshot empty, to be filled at the next boundary',
    file: 'runner/context-boundary.ts',
    find: "      { type: 'context.initialized', parts: systemParts(deps.profile, initialization.baseline), snapshot, provider },",
    replace:
      "      { type: 'context.initialized', parts: systemParts(deps.profile, initialization.baseline), snapshot: {}, provider },",
    clauses: ['EPO-01 (b)'],
  },
  {
    // The failure answers the prompt: it is taken out of the inbox into history, the epoch still unbegun.
    name: 'a prompt whose first epoch cannot begin is promoted with the failure',
    file: 'runner/drain.ts',
    find: "      if (!(error instanceof ContextBlocked)) throw error;\n      deps.log.append(sessionId, [{ type: 'session.failed', code: error.code, message: error.message }]);",
    replace:
      "      if (!(error instanceof ContextBlocked)) throw error;\n      if (!deps.epochs.find(sessionId)) promoteAtBoundary(deps, sessionId);\n      deps.log.append(sessionId, [{ type: 'session.failed', code: error.code, message: error.message }]);",
    clauses: ['EPO-02 (c)'],
  },
  {
    name: 'a prompt whose epoch cannot begin is answered without a baseline',
    file: 'runner/drain.ts',
    find: "      if (!(error instanceof ContextBlocked)) throw error;\n      deps.log.append(sessionId, [{ type: 'session.failed', code: error.code, message: error.message }]);",
    replace:
      "      if (!(error instanceof ContextBlocked)) throw error;\n      if (!deps.epochs.find(sessionId) && promoteAtBoundary(deps, sessionId) > 0) await runProviderTurn(deps, session, [], signal);\n      deps.log.append(sessionId, [{ type: 'session.failed', code: error.code, message: error.message }]);",
    clauses: ['EPO-02 (a)'],
  },
  {
    name: 'a session whose first epoch could not begin waits for new input, not for a run',
    file: 'runner/drain.ts',
    find: "      if (!(error instanceof ContextBlocked)) throw error;\n      deps.log.append(sessionId, [{ type: 'session.failed', code: error.code, message: error.message }]);",
    replace:
      "      if (!(error instanceof ContextBlocked)) throw error;\n      if (!deps.epochs.find(sessionId)) blockedAtStart.add(sessionId);\n      deps.log.append(sessionId, [{ type: 'session.failed', code: error.code, message: error.message }]);",
    also: [
      {
        file: 'runner/drain.ts',
        find: '  const { location } = deps.sessions.get(sessionId);\n  failAbandonedWork(deps.log, deps.history, sessionId);',
        replace:
          "  const { location } = deps.sessions.get(sessionId);\n  if (mode === 'run' && blockedAtStart.has(sessionId)) return 'idle';\n  failAbandonedWork(deps.log, deps.history, sessionId);",
      },
      {
        file: 'runner/drain.ts',
        find: 'export const MAX_PROVIDER_TURNS = 25;',
        replace: 'export const MAX_PROVIDER_TURNS = 25;\nconst blockedAtStart = new Set<string>();',
      },
    ],
    clauses: ['EPO-02 (d)'],
  },
  {
    // The change is told, and the baseline is rendered again with it, so the cache prefix moves.
    name: 'an admitted change also renders the baseline again',
    file: 'runner/context-boundary.ts',
    find: "      this.deps.log.append(this.session.id, [{ type: 'context.updated', messageId, text, keys, snapshot }]);",
    replace:
      "      this.deps.log.append(this.session.id, [{ type: 'context.updated', messageId, text, keys, snapshot }]);\n      const fresh = await initialize(this.deps.profile, this.sources);\n      if (fresh.kind === 'ready') this.deps.log.append(this.session.id, [{ type: 'context.replaced', parts: systemParts(this.deps.profile, fresh.baseline), snapshot: fresh.baseline.snapshot, provider: providerOf(this.deps.provider) }]);",
    clauses: ['EPO-04 (c)'],
  },
  {
    name: 'the baseline is rendered again from the snapshot for every turn',
    file: 'runner/context-boundary.ts',
    find: "      this.deps.log.append(this.session.id, [{ type: 'context.updated', messageId, text, keys, snapshot }]);\n    }\n    return this.deps.epochs.find(this.session.id)!;",
    replace:
      "      this.deps.log.append(this.session.id, [{ type: 'context.updated', messageId, text, keys, snapshot }]);\n    }\n    const now = this.deps.epochs.find(this.session.id)!;\n    if (this.deps.profile.keepsBaselineParts()) return now;\n    const texts = this.sources.filter((s) => now.snapshot[s.key]).map((s) => s.baseline(s.decode(now.snapshot[s.key]!.value)));\n    return { ...now, parts: [texts.join('\\n\\n')] };",
    clauses: ['EPO-04 (a)', 'EPO-04 (c)'],
  },
  {
    name: 'a restart begins a fresh epoch for every session',
    kind: 'state held only in memory',
    file: 'runtime.ts',
    find: '    this.epochs = new EpochStore(this.db);',
    replace:
      "    this.epochs = new EpochStore(this.db);\n    this.db.prepare('UPDATE context_epochs SET replacement_pending = 1').run();",
    clauses: ['EPO-04 (b)', 'EPO-05 (b)'],
  },
  {
    name: 'system messages are kept durably but not sent',
    file: 'runner/provider-turn.ts',
    find: '    history: modelHistory(deps.history.messages(session.id), deps.profile.checkpointForm(), deps.prunedMessage?.()),\n    tools:',
    replace:
      "    history: modelHistory(deps.history.messages(session.id), deps.profile.checkpointForm(), deps.prunedMessage?.()).filter((m) => m.role !== 'system'),\n    tools:",
    clauses: ['EPO-04 (d)', 'MCS-05 (b)'],
  },
  {
    name: "a fresh baseline after a compaction is compared with the old epoch's snapshot",
    kind: 'stale cache',
    file: 'runner/context-boundary.ts',
    find: "      { type: 'context.replaced', parts, snapshot: replaced, provider: providerOf(deps.provider) },\n    ]);\n    return new ContextBoundary(deps, session, sources, true);",
    replace:
      "      { type: 'context.replaced', parts, snapshot, provider: providerOf(deps.provider) },\n    ]);\n    return new ContextBoundary(deps, session, sources, false);",
    clauses: ['EPO-06 (b)'],
  },
  {
    name: "a compaction deletes the earlier epoch's system messages from durable history",
    file: 'history/history-projection.ts',
    find: "    case 'compaction.ended': {\n      const { summary, recentContext, cutSeq } = event;",
    replace:
      "    case 'compaction.ended': {\n      const { summary, recentContext, cutSeq } = event;\n      db.prepare(\"DELETE FROM messages WHERE session_id = ? AND role = 'system'\").run(sessionId);",
    clauses: ['EPO-06 (d)'],
  },
  {
    name: 'the fresh baseline is rendered from the snapshot, not from the current context',
    file: 'context/system-context.ts',
    find: "  return { kind: 'replacement-ready', baseline: render(design, observed) };",
    replace:
      "  const held = observed.map((o) => (snapshot[o.source.key] && !design.hashesSnapshot() ? { ...o, observation: o.source.decode(snapshot[o.source.key]!.value) } : o));\n  return { kind: 'replacement-ready', baseline: render(design, held) };",
    clauses: ['EPO-06 (a)', 'EPO-09 (b)'],
  },
  {
    name: 'the message listing leaves out system messages from before the newest compaction',
    file: 'history/history-store.ts',
    find: '  messages(sessionId: string): SessionMessage[] {\n    const version',
    replace:
      "  messages(sessionId: string): SessionMessage[] {\n    const all = this.allMessages(sessionId);\n    const cut = all.findLast((m) => m.role === 'compaction')?.seq ?? 0;\n    return all.filter((m) => m.role !== 'system' || m.seq > cut);\n  }\n\n  private allMessages(sessionId: string): SessionMessage[] {\n    const version",
    clauses: ['EPO-06 (d)'],
  },
  {
    // The destination's sources are told twice: in the fresh baseline, and as the changes since the old location.
    name: "the destination's first turn also announces its sources in a system message",
    file: 'runner/context-boundary.ts',
    find: "      { type: 'context.initialized', parts: systemParts(deps.profile, initialization.baseline), snapshot, provider },\n    ]);",
    replace:
      "      { type: 'context.initialized', parts: systemParts(deps.profile, initialization.baseline), snapshot, provider },\n      ...(deps.log.after(session.id, 0).some(({ event }) => event.type === 'session.moved')\n        ? [{ type: 'context.updated' as const, messageId: deps.ids.next('msg'), text: initialization.baseline.parts.map((part) => part.text).join('\\n\\n'), keys: initialization.baseline.parts.map((part) => part.key), snapshot }]\n        : []),\n    ]);",
    clauses: ['EPO-07 (c)'],
  },
  {
    name: "the destination's first turn tells what differs from the old location's snapshot",
    file: 'runner/context-boundary.ts',
    find: '    const { snapshot } = initialization.baseline;\n    const provider = providerOf(deps.provider);',
    replace:
      "    const { snapshot } = initialization.baseline;\n    const provider = providerOf(deps.provider);\n    const earlier = deps.log.after(session.id, 0).findLast(({ event }) => event.type === 'context.initialized' || event.type === 'context.updated' || event.type === 'context.replaced');\n    const told = earlier ? await reconcile(deps.profile, sources, (earlier.event as { snapshot: ContextSnapshot }).snapshot) : undefined;\n    if (told?.kind === 'updated') {\n      deps.log.append(session.id, [{ type: 'context.initialized', parts: systemParts(deps.profile, initialization.baseline), snapshot, provider }, { type: 'context.updated', messageId: deps.ids.next('msg'), text: told.text, keys: told.keys, snapshot }]);\n      return new ContextBoundary(deps, session, sources, true);\n    }",
    clauses: ['EPO-07 (c)'],
  },
  {
    name: 'a session with history promotes its input before a new epoch begins',
    file: 'runner/drain.ts',
    find: '    let context: ContextBoundary;',
    replace:
      '    if (!deps.epochs.find(sessionId) && deps.history.messages(sessionId).length > 0) promoteAtBoundary(deps, sessionId);\n    let context: ContextBoundary;',
    clauses: ['EPO-07 (d)'],
  },
  {
    name: "after a model switch, the earlier model's answers are left out of the history sent",
    file: 'runner/provider-turn.ts',
    find: '    history: modelHistory(deps.history.messages(session.id), deps.profile.checkpointForm(), deps.prunedMessage?.()),',
    replace:
      "    history: modelHistory(deps.history.messages(session.id), deps.profile.checkpointForm(), deps.prunedMessage?.()).filter(\n      (m) => m.role !== 'assistant' || m.model === (session.model ?? deps.provider.model),\n    ),",
    clauses: ['EPO-08 (b)'],
  },
  {
    name: "the epoch ends when the selected model differs from the last answer's",
    file: 'runner/context-boundary.ts',
    find: '    if (epoch && !epoch.replacementPending && endsAtProviderSwitch(deps, epoch))',
    replace:
      "    const answered = (deps as unknown as { history: { messages(id: string): { role: string; model?: string }[] } }).history.messages(session.id).findLast((m) => m.role === 'assistant')?.model;\n    if (epoch && !epoch.replacementPending && (endsAtProviderSwitch(deps, epoch) || (answered !== undefined && answered !== '' && answered !== (session.model ?? deps.provider.model))))",
    clauses: ['EPO-08 (a)'],
  },
  {
    name: "after a model switch, the history sent starts after the earlier model's last answer",
    file: 'runner/provider-turn.ts',
    find: '    history: modelHistory(deps.history.messages(session.id), deps.profile.checkpointForm(), deps.prunedMessage?.()),\n    tools:',
    replace:
      "    history: ((history) => history.slice(history.findLastIndex((m) => m.role === 'assistant' && m.model !== '' && m.model !== (session.model ?? deps.provider.model)) + 1))(modelHistory(deps.history.messages(session.id), deps.profile.checkpointForm(), deps.prunedMessage?.())),\n    tools:",
    clauses: ['EPO-08 (b)'],
  },
  {
    name: 'after a switch of provider, the history sent starts at the switch',
    file: 'runner/context-boundary.ts',
    find: '    const epoch = deps.epochs.find(session.id);\n    if (epoch && !epoch.replacementPending && endsAtProviderSwitch(deps, epoch))',
    replace:
      '    const epoch = deps.epochs.find(session.id);\n    if (epoch?.provider !== undefined && epoch.provider !== providerOf(deps.provider) && !providerCuts.has(session.id))\n      providerCuts.set(session.id, Math.max(0, ...(deps as unknown as { history: { messages(id: string): { seq: number }[] } }).history.messages(session.id).map((m) => m.seq)));\n    if (epoch && !epoch.replacementPending && endsAtProviderSwitch(deps, epoch))',
    also: [
      {
        file: 'runner/context-boundary.ts',
        find: '/** Why the context stops a drain before anything is sent. */',
        replace:
          'export const providerCuts = new Map<string, number>();\n/** Why the context stops a drain before anything is sent. */',
      },
      {
        file: 'runner/provider-turn.ts',
        find: '    history: modelHistory(deps.history.messages(session.id), deps.profile.checkpointForm(), deps.prunedMessage?.()),\n    tools:',
        replace:
          '    history: modelHistory(deps.history.messages(session.id), deps.profile.checkpointForm(), deps.prunedMessage?.()).filter((m) => m.seq > (providerCuts.get(session.id) ?? 0)),\n    tools:',
      },
      {
        file: 'runner/provider-turn.ts',
        find: "import { ToolAuthorization } from './tool-authorization.js';",
        replace:
          "import { ToolAuthorization } from './tool-authorization.js';\nimport { providerCuts } from './context-boundary.js';",
      },
    ],
    clauses: ['EPO-08 (d)'],
  },
  {
    // The replacement is given up rather than waited for: the old baseline goes on, its changes told as messages.
    name: 'a blocked replacement keeps the old baseline for the rest of the epoch',
    file: 'runner/context-boundary.ts',
    find: '    if (epoch) return ContextBoundary.replaced(deps, session, sources, epoch.snapshot);',
    replace:
      "    if (epoch) {\n      try {\n        return await ContextBoundary.replaced(deps, session, sources, epoch.snapshot);\n      } catch (error) {\n        if (!(error instanceof ContextBlocked)) throw error;\n        deps.log.append(session.id, [{ type: 'context.replaced', parts: epoch.parts, snapshot: epoch.snapshot, ...(epoch.provider ? { provider: epoch.provider } : {}) }]);\n        return new ContextBoundary(deps, session, sources, false);\n      }\n    }",
    clauses: ['EPO-09 (b)'],
  },
  {
    name: 'a fresh baseline renders an unavailable admitted source from its stored value',
    file: 'context/system-context.ts',
    find: "  if (unavailable.length > 0) return { kind: 'replacement-blocked', unavailable };\n  return { kind: 'replacement-ready', baseline: render(design, observed) };",
    replace:
      "  const held = observed.map((o) => (o.observation === Unavailable && snapshot[o.source.key] && !design.hashesSnapshot() ? { ...o, observation: o.source.decode(snapshot[o.source.key]!.value) } : o));\n  return { kind: 'replacement-ready', baseline: render(design, held) };",
    clauses: ['EPO-09 (a)'],
  },
  {
    name: 'the baseline names the instruction files without their text',
    file: 'context/sources/instructions.ts',
    find: '    baseline: render,',
    replace: "    baseline: (files) => files.map((f) => `Instructions from: ${f.path}`).join('\\n'),",
    clauses: ['EPO-10 (c)'],
  },
  {
    name: "the environment names the runtime process's working directory",
    file: 'context/sources/environment.ts',
    find: 'load: async () => ({ workingDirectory: location, projectRoot,',
    replace: 'load: async () => ({ workingDirectory: process.cwd(), projectRoot,',
    clauses: ['EPO-10 (a)'],
  },
  {
    name: 'the baseline carries the global instructions only',
    file: 'context/sources/instructions.ts',
    find: '    baseline: render,',
    replace: '    baseline: (files) => render(files.filter((f) => f.path.startsWith(scope.globalDir))),',
    clauses: ['EPO-10 (c)'],
  },
];
