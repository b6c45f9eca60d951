import type { Mutant } from './mutant.js';

export const runner: Mutant[] = [
  {
    name: 'a tool call is recorded only after it ran',
    kind: 'ordering in time',
    file: 'runner/turn-projection.ts',
    find: `    log.append(this.sessionId, [
      { type: 'tool.called', assistantMessageId, callId: call.id, name: call.name, input: call.input, ...blocks },
    ]);`,
    replace: '',
    clauses: ['RUN-01 (b)'],
  },
  {
    name: 'the turn limit is off by one',
    kind: 'edge value',
    file: 'runner/drain.ts',
    find: 'if (turns >= MAX_PROVIDER_TURNS) {',
    replace: 'if (turns > MAX_PROVIDER_TURNS) {',
    clauses: ['RUN-02 (b)'],
  },
  {
    name: 'tool settlements are keyed by call ID alone',
    file: 'history/message.ts',
    find: 'return `${assistantMessageId}/${callId}`;',
    replace: 'return `${assistantMessageId.length > 0 ? "" : assistantMessageId}${callId}`;',
    clauses: ['RUN-03 (a)'],
  },
  {
    name: 'a tool abandoned by a dead process is left running',
    file: 'runner/recovery.ts',
    find: "if (message.role === 'tool' && message.status === 'running') {",
    replace: "if (message.role === 'tool' && message.status === 'never') {",
    clauses: ['RUN-04 (a)', 'RUN-04 (c)'],
  },
  {
    // Recovery fails "the" abandoned tool: of two calls running when the process died, the second
    // stays running.
    name: 'recovery fails only the first tool left running by a dead process',
    kind: 'second occurrence',
    file: 'runner/recovery.ts',
    find: "if (message.role === 'tool' && message.status === 'running') {",
    replace:
      "if (message.role === 'tool' && message.status === 'running' && !events.some((e) => e.type === 'tool.settled')) {",
    clauses: ['RUN-04 (d)'],
  },
  {
    name: 'an interrupted tool reads in other words than the seed fixes',
    file: 'history/message.ts',
    find: "export const INTERRUPTED_TOOL_OUTPUT = 'Tool execution interrupted';",
    replace: "export const INTERRUPTED_TOOL_OUTPUT = 'Tool interrupted';",
    clauses: ['RUN-04 (b)'],
  },
  {
    name: 'history is ordered by message ID',
    file: 'history/history-store.ts',
    find: "'SELECT id, seq, role, hidden, status, body FROM messages WHERE session_id = ? ORDER BY seq'",
    replace: "'SELECT id, seq, role, hidden, status, body FROM messages WHERE session_id = ? ORDER BY id'",
    clauses: ['RUN-05 (a)'],
  },
  {
    // Only a runtime that pages its history (history-paging) shows where a page ends.
    name: 'a page of the history ends before the cursor by message ID, not by sequence',
    kind: 'promoted item loses its sequence',
    needs: 'history-paging',
    file: 'history/history-store.ts',
    find: 'WHERE m.session_id = ? AND m.seq < cursor.seq ORDER BY m.seq DESC LIMIT ?',
    replace: 'WHERE m.session_id = ? AND m.id < cursor.id ORDER BY m.seq DESC LIMIT ?',
    clauses: ['RUN-05 (d)'],
  },
  {
    name: 'replay skips the event right after the cursor',
    file: 'store/event-log.ts',
    find: 'let cursor = after;',
    replace: 'let cursor = after + 1;',
    clauses: ['RUN-06 (a)'],
  },
  {
    name: 'reasoning fragments are stored as durable events',
    file: 'runner/turn-projection.ts',
    find: "        this.reasoning = { ...this.reasoning, text: (this.reasoning?.text ?? '') + chunk.delta };",
    replace:
      "        this.reasoning = { ...this.reasoning, text: (this.reasoning?.text ?? '') + chunk.delta };\n        this.deps.log.append(this.sessionId, [{ type: 'session.selected' }]);",
    clauses: ['RUN-06 (e)'],
  },
  {
    name: 'tool-input fragments are stored as durable events',
    file: 'runner/turn-projection.ts',
    find: "        this.call!.input += chunk.argumentsDelta ?? '';",
    replace:
      "        this.call!.input += chunk.argumentsDelta ?? '';\n        this.deps.log.append(this.sessionId, [{ type: 'session.selected' }]);",
    clauses: ['RUN-06 (e)'],
  },
  {
    name: 'text fragments are stored as durable events',
    file: 'runner/turn-projection.ts',
    find: 'this.text += chunk.delta;',
    replace: "this.text += chunk.delta;\n        this.deps.log.append(this.sessionId, [{ type: 'session.selected' }]);",
    clauses: ['RUN-06 (d)'],
  },
  {
    name: 'a moved session keeps its old location',
    file: 'runner/drain.ts',
    find: "if (session.location !== location) return 'moved';",
    replace: '',
    also: [
      {
        file: 'runner/drain.ts',
        find: 'const outcome = await runProviderTurn(deps, session, epoch.parts, signal, doomLoop);',
        replace:
          'const outcome = await runProviderTurn(deps, { ...session, location }, epoch.parts, signal, doomLoop);',
      },
    ],
    clauses: ['RUN-08 (a)'],
  },
  {
    name: 'one drain at a time for all sessions together',
    file: 'runner/coordinator.ts',
    find: "    const chain = this.chains.get(sessionId);\n    if (chain) chain.rerun ??= 'wake';\n    else this.start(sessionId, 'wake');",
    replace:
      "    const chain = this.chains.get(sessionId) ?? [...this.chains.values()][0];\n    if (chain) chain.rerun ??= 'wake';\n    else this.start(sessionId, 'wake');",
    clauses: ['RUN-07 (b)'],
  },
  {
    name: 'tool inputs are not decoded against the parameters',
    file: 'tools/tool-registry.ts',
    find: "    if (invalid) return { status: 'error', output: `Invalid input for ${name}: ${invalid}` };",
    replace: '',
    clauses: ['RUN-10 (d)'],
  },
  {
    name: 'an input that is not JSON fails the turn instead of the call',
    file: 'tools/tool-registry.ts',
    find: "      return { status: 'error', output: `Invalid JSON input for ${name}` };",
    replace: '      throw new Error(`Invalid JSON input for ${name}`);',
    clauses: ['RUN-10 (d)'],
  },
  {
    name: 'a failing tool reads to the model as a generic error',
    file: 'tools/tool-registry.ts',
    find: "return { status: 'error', output: error instanceof Error ? error.message : String(error), ...structured };",
    replace: "return { status: 'error', output: 'the tool failed', ...structured };",
    clauses: ['RUN-10 (e)'],
  },
  {
    name: "an interrupted settlement clears the turn's provider metadata",
    file: 'history/history-projection.ts',
    find: "      setStatus(db, id, event.status);\n      return;\n    }\n    case 'tool.pruned':",
    replace:
      "      if (event.status === 'interrupted') updateBody(db, event.assistantMessageId, (body) => void delete body.providerBlocks);\n      setStatus(db, id, event.status);\n      return;\n    }\n    case 'tool.pruned':",
    clauses: ['RUN-09 (d)'],
  },
  {
    name: 'replay sends the provider-executed result without its call',
    file: 'provider/anthropic-messages.ts',
    find: '    ...((message.providerBlocks ?? []) as ContentBlock[]),',
    replace:
      "    ...((message.providerBlocks ?? []) as ContentBlock[]).filter((block) => block.type !== 'server_tool_use'),",
    clauses: ['RUN-09 (a)'],
  },
  {
    name: 'a provider-executed call is stored without its streamed input',
    kind: 'partial comparison',
    file: 'runner/turn-projection.ts',
    find: "map(({ block, input }) => input === '' ? block : { ...block, input: JSON.parse(input) });",
    replace: 'map(({ block }) => block);',
    clauses: ['RUN-09 (a)'],
  },
  {
    // A runner that goes on from the conversation it holds in memory: each tool's output as the
    // tool returned it, not as the settlement recorded it bounded.
    name: 'the next request carries the tool output held in memory, not the one stored',
    kind: 'state held only in memory',
    file: 'runner/turn-projection.ts',
    find: '        async (result) => void settle(await this.deps.tools.bound(result)),',
    replace:
      '        async (result) => { heldOutputs.set(call.id, result.output); settle(await this.deps.tools.bound(result)); },',
    also: [
      {
        file: 'runner/turn-projection.ts',
        find: "import type { ToolAuthorizationDeps } from './tool-authorization.js';",
        replace:
          "import type { ToolAuthorizationDeps } from './tool-authorization.js';\nexport const heldOutputs = new Map<string, unknown>();",
      },
      {
        file: 'runner/provider-turn.ts',
        find: '    history: modelHistory(deps.history.messages(session.id), deps.profile.checkpointForm(), deps.prunedMessage?.()),',
        replace:
          "    history: modelHistory(deps.history.messages(session.id).map((m) => m.role === 'tool' && typeof heldOutputs.get(m.callId) === 'string' ? { ...m, output: heldOutputs.get(m.callId) as string } : m), deps.profile.checkpointForm(), deps.prunedMessage?.()),",
      },
      {
        file: 'runner/provider-turn.ts',
        find: "import { modelHistory } from '../history/model-history.js';",
        replace:
          "import { modelHistory } from '../history/model-history.js';\nimport { heldOutputs } from './turn-projection.js';",
      },
    ],
    clauses: ['RUN-01 (e)'],
  },
  {
    // History read once per prompt and kept: the turns of one drain go on from the copy read
    // before its tools ran.
    name: 'the history read for the first turn of a drain serves its later turns',
    kind: 'stale cache',
    file: 'runner/provider-turn.ts',
    find: '    history: modelHistory(deps.history.messages(session.id), deps.profile.checkpointForm(), deps.prunedMessage?.()),',
    replace:
      '    history: modelHistory(readOnce(deps, session.id), deps.profile.checkpointForm(), deps.prunedMessage?.()),',
    also: [
      {
        file: 'runner/provider-turn.ts',
        find: "import { modelHistory } from '../history/model-history.js';",
        replace:
          "import { modelHistory } from '../history/model-history.js';\nconst readFor = new Map<string, { prompts: number; messages: ReturnType<HistoryStore['messages']> }>();\nfunction readOnce(deps: ProviderTurnDeps, id: string) { const now = deps.history.messages(id); const prompts = now.filter((m) => m.role === 'user').length; const kept = readFor.get(id); if (kept?.prompts === prompts) return [...kept.messages, ...now.slice(kept.messages.length).filter((m) => m.role !== 'tool')]; readFor.set(id, { prompts, messages: now }); return now; }",
      },
    ],
    clauses: ['RUN-01 (b)'],
  },
  {
    name: 'the next request goes out while tools still run',
    file: 'runner/turn-projection.ts',
    find: '    await Promise.all(this.running);',
    replace: '',
    clauses: ['RUN-01 (c)'],
  },
  {
    name: 'the turn limit ends the drain without a failure',
    file: 'runner/drain.ts',
    find: "      deps.log.append(sessionId, [\n        { type: 'session.failed', code: 'turn-limit', message: `work remains after ${MAX_PROVIDER_TURNS} provider turns` },\n      ]);\n",
    replace: '',
    clauses: ['RUN-02 (b)'],
  },

  {
    name: 'a wake during a drain starts another drain beside it',
    file: 'runner/coordinator.ts',
    find: "    if (chain) chain.rerun ??= 'wake';\n    else this.start(sessionId, 'wake');",
    replace: "    this.start(sessionId, 'wake');",
    clauses: ['RUN-07 (a)'],
  },
  {
    name: 'the model history keeps one tool result per call ID',
    kind: 'second occurrence',
    file: 'history/model-history.ts',
    find: '  return activeHistory(messages, form).map((m) =>',
    replace:
      "  return activeHistory(messages, form).filter((m, i, all) => m.role !== 'tool' || all.findIndex((o) => o.role === 'tool' && o.callId === m.callId) === i).map((m) =>",
    clauses: ['RUN-03 (b)'],
  },
  {
    name: 'pending prompts promote in message ID order',
    file: 'inbox/inbox.ts',
    find: "'SELECT * FROM inbox WHERE session_id = ? AND delivery = ? AND promoted_seq IS NULL ORDER BY admitted_seq',",
    replace:
      "'SELECT * FROM inbox WHERE session_id = ? AND delivery = ? AND promoted_seq IS NULL ORDER BY message_id',",
    clauses: ['RUN-05 (a)'],
  },
  {
    name: 'a moved drain goes on with the context of the location it started in',
    file: 'runner/drain.ts',
    find: "if (session.location !== location) return 'moved';",
    replace: '',
    also: [
      {
        file: 'runner/drain.ts',
        find: '      context = await ContextBoundary.open(deps, session);',
        replace: '      context = await ContextBoundary.open(deps, { ...session, location, projectRoot: startRoot });',
      },
      {
        file: 'runner/drain.ts',
        find: '  const { location } = deps.sessions.get(sessionId);',
        replace: '  const { location, projectRoot: startRoot } = deps.sessions.get(sessionId);',
      },
    ],
    clauses: ['RUN-08 (b)'],
  },
  {
    name: 'pending prompts promote in the order of their admission times',
    file: 'inbox/inbox.ts',
    find: "'SELECT * FROM inbox WHERE session_id = ? AND delivery = ? AND promoted_seq IS NULL ORDER BY admitted_seq',",
    replace:
      "'SELECT * FROM inbox WHERE session_id = ? AND delivery = ? AND promoted_seq IS NULL ORDER BY (SELECT at FROM events WHERE events.session_id = inbox.session_id AND events.seq = inbox.admitted_seq)',",
    clauses: ['RUN-05 (a)', 'RUN-05 (b)'],
  },
  {
    name: "a tool's output is never validated against the schema it declares",
    file: 'tools/tool-registry.ts',
    find: "      if (malformed) return { status: 'error', output: `Invalid output of ${name}: ${malformed}` };\n",
    replace: '',
    clauses: ['RUN-10 (f)'],
  },
  {
    // A runtime that checks a result's shape only at its top level, not field by field.
    name: 'an output is validated as an object only, not by its fields',
    kind: 'partial comparison',
    needs: 'tool-contributions',
    file: 'tools/tool-registry.ts',
    find: '  return schemaProblem(schema, structured);',
    replace:
      "  return typeof structured === 'object' && structured !== null ? undefined : 'the value is not an object';",
    clauses: ['RUN-10 (f)'],
  },
  {
    name: 'an output that does not validate is told to the model but settles as a success',
    file: 'tools/tool-registry.ts',
    find: "      if (malformed) return { status: 'error', output: `Invalid output of ${name}: ${malformed}` };",
    replace: "      if (malformed) return { status: 'success', output: `Invalid output of ${name}: ${malformed}` };",
    clauses: ['RUN-10 (f)'],
  },
  {
    name: 'a closed tool contribution stays advertised',
    file: 'tools/tool-registry.ts',
    find: '    return this.contributions.get(location)?.delete(key) ?? false;',
    replace: '    return this.contributions.get(location)?.has(key) ?? false;',
    clauses: ['RUN-10 (c)'],
  },
  {
    name: 'contributed tools are advertised in every location',
    file: 'tools/tool-registry.ts',
    find: '    return [...this.tools.values(), ...[...(this.contributions.get(location)?.values() ?? [])].flat()];',
    replace:
      '    return [...this.tools.values(), ...[...this.contributions.values()].flatMap((scoped) => [...scoped.values()].flat())];',
    clauses: ['RUN-10 (a)', 'RUN-10 (b)'],
  },
  {
    name: 'a contributed tool is advertised but never found to run',
    file: 'tools/tool-registry.ts',
    find: '    const tool = this.available(context.location).find((candidate) => candidate.name === name);',
    replace: '    const tool = this.tools.get(name);',
    clauses: ['RUN-10 (a)'],
  },
  {
    // The parsed history is kept until the session has more messages; a settlement changes none.
    name: 'the parsed history is kept while the number of messages stays the same',
    kind: 'stale cache',
    file: 'history/history-store.ts',
    find: "'SELECT last_seq FROM sessions WHERE id = ?'",
    replace: "'SELECT count(*) AS last_seq FROM messages WHERE session_id = ?'",
    clauses: ['RUN-01 (b)'],
  },
  {
    name: 'a failed tool result ends the drain instead of going back to the model',
    kind: 'counting by status',
    file: 'runner/drain.ts',
    find: "  if (last?.role !== 'tool') return false;",
    replace: "  if (last?.role !== 'tool' || last.status === 'error') return false;",
    clauses: ['RUN-10 (e)'],
  },
  {
    // The live tail reads on from the replay's cursor at every commit, so each take repeats the earlier ones.
    name: 'the live tail does not move its cursor past what it delivered',
    kind: 'second occurrence',
    file: 'store/event-log.ts',
    find: '        cursor = event.seq;\n        onEvent(event);',
    replace: '        onEvent(event);',
    clauses: ['RUN-06 (f)'],
  },
  // RUN-08 (c): the tools a request advertises are those of the location the session is in now.
  {
    name: "a session's advertised tools are looked up once, in the location of its first turn, and kept",
    kind: 'stale cache',
    needs: 'tool-contributions',
    file: 'runner/provider-turn.ts',
    find: '    tools: deps.tools.definitions(session.location),',
    replace: '    tools: (advertisedTools[session.id] ??= deps.tools.definitions(session.location)),',
    also: [
      {
        file: 'runner/provider-turn.ts',
        find: '/** What the next provider turn of `session` would send. */',
        replace:
          'const advertisedTools: Record<string, ReturnType<ProviderTurnDeps["tools"]["definitions"]>> = {};\n/** What the next provider turn of `session` would send. */',
      },
    ],
    clauses: ['RUN-08 (c)'],
  },
  {
    name: "a location's contributed tools are advertised in every directory under it",
    kind: 'containment by prefix',
    needs: 'tool-contributions',
    file: 'tools/tool-registry.ts',
    find: '    return [...this.tools.values(), ...[...(this.contributions.get(location)?.values() ?? [])].flat()];',
    replace:
      '    return [\n      ...this.tools.values(),\n      ...[...this.contributions].filter(([at]) => location.startsWith(at)).flatMap(([, scoped]) => [...scoped.values()].flat()),\n    ];',
    clauses: ['RUN-08 (c)'],
  },
  {
    name: 'a drain that used its 25 provider turns fails even with nothing left to do',
    kind: 'edge value',
    file: 'runner/drain.ts',
    find: "    if (!requiresContinuation(deps.history.messages(sessionId)) && !attemptAnyway) return 'idle';",
    replace:
      "    if (!requiresContinuation(deps.history.messages(sessionId)) && !attemptAnyway && turns < MAX_PROVIDER_TURNS) return 'idle';",
    clauses: ['RUN-02 (c)'],
  },
  {
    // A second copy of the request warms the provider's cache once the answer starts; its own answer is dropped.
    name: 'a provider turn sends its request a second time, alongside the first',
    file: 'runner/provider-turn.ts',
    find: '  const open = () => streamTurn(dialect, deps.provider, request, signal);',
    replace: `  const open = () =>
    (async function* () {
      let warmed = false;
      for await (const chunk of streamTurn(dialect, deps.provider, request, signal)) {
        if (!warmed) {
          warmed = true;
          void (async () => {
            for await (const _ of streamTurn(dialect, deps.provider, request, signal));
          })().catch(() => undefined);
        }
        yield chunk;
      }
    })();`,
    clauses: ['RUN-01 (a)'],
  },
  {
    name: 'the next request carries only the last result of a turn',
    file: 'history/model-history.ts',
    find: '  return activeHistory(messages, form).map((m) =>',
    replace:
      "  return activeHistory(messages, form).filter((m, i, all) => m.role !== 'tool' || !all.slice(i + 1).some((o) => o.role === 'tool' && o.assistantMessageId === m.assistantMessageId)).map((m) =>",
    clauses: ['RUN-01 (d)'],
  },
  {
    // Resuming where the dead process stopped: the abandoned call is started again in the background, and its old record failed as before.
    name: 'recovery starts a tool left running by a dead process again',
    file: 'runner/drain.ts',
    find: '  failAbandonedWork(deps.log, deps.history, sessionId);',
    replace: `  for (const message of deps.history.messages(sessionId)) {
    if (message.role !== 'tool' || message.status !== 'running') continue;
    const agent = deps.agents.agent(deps.sessions.get(sessionId).agent);
    void deps.tools.execute(message.name, message.input, { location, signal, agent, authorize: async () => true });
  }
  failAbandonedWork(deps.log, deps.history, sessionId);`,
    clauses: ['RUN-04 (e)'],
  },
  {
    name: "the interrupted tool's text names the tool after the seed's words",
    file: 'runner/recovery.ts',
    find: '        output: INTERRUPTED_TOOL_OUTPUT,',
    replace: '        output: `${INTERRUPTED_TOOL_OUTPUT}: ${message.name}`,',
    clauses: ['RUN-04 (b)'],
  },
  {
    name: 'a tool left running by a dead process settles as an error, not as interrupted',
    kind: 'counting by status',
    file: 'runner/recovery.ts',
    find: "        status: 'interrupted',",
    replace: "        status: 'error',",
    clauses: ['RUN-04 (c)'],
  },
  {
    name: 'a request orders its messages by message ID',
    file: 'history/model-history.ts',
    find: '  return activeHistory(messages, form).map((m) =>',
    replace:
      '  return [...activeHistory(messages, form)].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0)).map((m) =>',
    clauses: ['RUN-05 (c)'],
  },
  {
    name: 'the tail goes live from the event before the end of the replay, sending that event again',
    kind: 'edge value',
    file: 'store/event-log.ts',
    find: '    const stop = this.onCommit((committed) => committed === sessionId && deliver());\n    deliver();\n',
    replace:
      '    const stop = this.onCommit((committed) => committed === sessionId && deliver());\n    deliver();\n    cursor = Math.max(after, cursor - 1);\n',
    clauses: ['RUN-06 (b)'],
  },
  {
    // A commit takes a number for itself besides those of its events, so the session's sequence skips one at each commit.
    name: 'each commit takes one sequence number more than its events use',
    file: 'store/event-log.ts',
    find: `    this.appendAll = db.transaction((sessionId: string, events: SessionEvent[]) =>
      events.map((event) => this.appendOne(sessionId, event)),
    );`,
    replace: `    this.appendAll = db.transaction((sessionId: string, events: SessionEvent[]) => {
      const seqs = events.map((event) => this.appendOne(sessionId, event));
      this.nextSeq.get(sessionId);
      return seqs;
    });`,
    clauses: ['RUN-06 (c)'],
  },
  {
    name: 'replay after a cursor begins with the event at the cursor',
    kind: 'edge value',
    file: 'store/event-log.ts',
    find: "'SELECT seq, data, at FROM events WHERE session_id = ? AND seq > ? ORDER BY seq',",
    replace: "'SELECT seq, data, at FROM events WHERE session_id = ? AND seq >= ? ORDER BY seq',",
    clauses: ['RUN-06 (a)'],
  },
  {
    // One provider-metadata record per provider call: the call's fields are written onto its result too.
    name: "a provider-executed result takes on its call's provider fields",
    file: 'runner/turn-projection.ts',
    find: `    return [...this.providerBlocks.values()].map(({ block, input }) =>
      input === '' ? block : { ...block, input: JSON.parse(input) },
    );`,
    replace: `    const blocks = [...this.providerBlocks.values()].map(({ block, input }) =>
      input === '' ? block : { ...block, input: JSON.parse(input) },
    );
    const calls = new Map(blocks.filter((b) => typeof b.id === 'string').map((b) => [b.id, b]));
    return blocks.map((b) => {
      const call = calls.get(b.tool_use_id);
      if (!call) return b;
      const { type: _type, id: _id, ...fields } = call;
      return { ...fields, ...b };
    });`,
    clauses: ['RUN-09 (b)'],
  },
  {
    name: "settling the turn keeps the provider's results but not their calls",
    file: 'history/history-projection.ts',
    find: '        if (event.providerBlocks) body.providerBlocks = event.providerBlocks;\n        if (event.usage) body.usage = event.usage;',
    replace:
      "        if (event.providerBlocks) body.providerBlocks = event.providerBlocks.filter((block) => block.type !== 'server_tool_use');\n        if (event.usage) body.usage = event.usage;",
    clauses: ['RUN-09 (c)'],
  },
  {
    // Recovery records the abandoned turn again with the provider calls it knows how to replay, and drops their results.
    name: "recovery keeps the provider's calls of an abandoned turn but not their results",
    file: 'runner/recovery.ts',
    find: "    if (message.role === 'tool' && message.status === 'running') {\n      events.push({",
    replace: `    if (message.role === 'tool' && message.status === 'running') {
      const turn = history.messages(sessionId).find((m) => m.id === message.assistantMessageId);
      if (turn?.role === 'assistant' && turn.status === 'completed' && turn.providerBlocks)
        events.push({
          type: 'assistant.completed',
          messageId: turn.id,
          text: turn.text,
          finish: turn.finish ?? 'stop',
          providerBlocks: turn.providerBlocks.filter((block) => block.type === 'server_tool_use'),
        });
      events.push({`,
    clauses: ['RUN-09 (e)'],
  },
  {
    // Tools contributed to the location a turn last ran in are remembered and served to the next turn, wherever it runs.
    name: "the last location's contributed tools are advertised to the next turn, in any location",
    kind: 'stale cache',
    needs: 'tool-contributions',
    file: 'tools/tool-registry.ts',
    find: '  private available(location: string): Tool[] {\n    return [...this.tools.values(), ...[...(this.contributions.get(location)?.values() ?? [])].flat()];',
    replace: `  private lastContributed: Tool[] = [];
  private available(location: string): Tool[] {
    const own = this.contributions.get(location);
    if (own && own.size > 0) this.lastContributed = [...own.values()].flat();
    return [...this.tools.values(), ...(own && own.size > 0 ? [...own.values()].flat() : this.lastContributed)];`,
    clauses: ['RUN-10 (b)'],
  },
  {
    name: 'a failing tool also reports a session failure, though the drain goes on',
    kind: 'counting by status',
    file: 'runner/turn-projection.ts',
    find: '        async (result) => void settle(await this.deps.tools.bound(result)),',
    replace: `        async (result) => {
          settle(await this.deps.tools.bound(result));
          if (result.status === 'error')
            log.append(this.sessionId, [{ type: 'session.failed', code: 'provider-error', message: result.output }]);
        },`,
    clauses: ['RUN-10 (g)'],
  },
  {
    name: 'a failed tool result is taken for an interrupted one: the drain waits for the user',
    kind: 'counting by status',
    file: 'runner/drain.ts',
    find: "      message.status === 'interrupted',",
    replace: "      message.status !== 'success',",
    clauses: ['RUN-10 (g)'],
  },
];
