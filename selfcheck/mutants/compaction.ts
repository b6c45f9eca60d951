import type { Mutant } from './mutant.js';

/** The model's history takes a compaction's recent context from the process's memory where a mutant keeps it there. */
const READS_RECENT_FROM_MEMORY = {
  file: 'runner/provider-turn.ts',
  find: '    history: modelHistory(deps.history.messages(session.id), deps.profile.checkpointForm(), deps.prunedMessage?.()),',
  replace:
    "    history: modelHistory(\n      deps.history\n        .messages(session.id)\n        .map((m) =>\n          m.role === 'compaction'\n            ? { ...m, recentContext: (deps.log as unknown as { recentInMemory?: Map<number, string> }).recentInMemory?.get(m.cutSeq) ?? m.recentContext }\n            : m,\n        ),\n      deps.profile.checkpointForm(),\n      deps.prunedMessage?.(),\n    ),",
};

export const compaction: Mutant[] = [
  {
    name: 'the reserve ignores the compaction buffer',
    file: 'compaction/compaction-budget.ts',
    find: 'const reserve = Math.max(budget.outputAllowance, budget.buffer);',
    replace: 'const reserve = budget.outputAllowance;',
    clauses: ['CMP-01 (f)'],
  },
  {
    name: 'an oversized request is sent without compacting',
    file: 'runner/drain.ts',
    find: '  return overBudget(providerRequest(deps, session, epoch.parts), budget);',
    replace: '  return overBudget(providerRequest(deps, session, epoch.parts), budget) && false;',
    clauses: ['CMP-02 (a)'],
  },
  {
    name: 'the newest complete turn is never folded: one older turn is not enough to compact',
    file: 'compaction/compactor.ts',
    find: "const complete = after.slice(0, end).some((m) => m.role === 'assistant' && m.status === 'completed');",
    replace:
      "const complete = after.slice(0, end).filter((m) => m.role === 'assistant' && m.status === 'completed').length >= 2;",
    clauses: ['CMP-02 (a)'],
    kind: 'edge value',
  },
  {
    name: 'a compaction runs with no older complete turn to fold',
    file: 'runner/drain.ts',
    find: '  if (compactable(messages).folded.length === 0) return false;\n',
    replace: '',
    clauses: ['CMP-03 (a)'],
  },
  {
    name: 'the recent context is not bounded',
    file: 'compaction/compactor.ts',
    find: '  const recentContext = recent(lines, RECENT_CONTEXT_TOKENS);',
    replace: '  const recentContext = recent(lines, RECENT_CONTEXT_TOKENS * 1_000);',
    clauses: ['CMP-04 (e)'],
  },
  {
    name: 'assistant and tool messages cross the compaction boundary',
    file: 'history/model-history.ts',
    find: "m.role !== 'compaction' && m.seq > checkpoint.cutSeq && !(m.role === 'system' && m.seq < checkpoint.seq),",
    replace:
      "m.role !== 'compaction' && (m.seq > checkpoint.cutSeq || m.role === 'assistant' || m.role === 'tool') && !(m.role === 'system' && m.seq < checkpoint.seq),",
    clauses: ['CMP-05 (a)'],
  },
  {
    // The cut taken inclusively: the newest folded message stays in view beside the checkpoint.
    name: 'the last folded message crosses the compaction boundary',
    kind: 'edge value',
    file: 'history/model-history.ts',
    find: "m.role !== 'compaction' && m.seq > checkpoint.cutSeq && !(m.role === 'system' && m.seq < checkpoint.seq),",
    replace:
      "m.role !== 'compaction' && m.seq >= checkpoint.cutSeq && !(m.role === 'system' && m.seq < checkpoint.seq),",
    clauses: ['CMP-04 (a)', 'CMP-05 (a)'],
  },
  {
    name: "the user's own messages stay in view across the compaction boundary",
    file: 'history/model-history.ts',
    find: "m.role !== 'compaction' && m.seq > checkpoint.cutSeq && !(m.role === 'system' && m.seq < checkpoint.seq),",
    replace:
      "m.role !== 'compaction' && (m.seq > checkpoint.cutSeq || m.role === 'user') && !(m.role === 'system' && m.seq < checkpoint.seq),",
    clauses: ['CMP-04 (d)', 'CMP-04 (f)'],
  },
  {
    name: 'summary fragments are stored durably',
    file: 'compaction/compactor.ts',
    find: '      deps.live.publish({ sessionId, messageId: compactionId, delta: chunk.delta });',
    replace: "      deps.log.append(sessionId, [{ type: 'compaction.requested' }]);",
    clauses: ['CMP-06 (b)'],
  },
  {
    name: 'a failed compaction still becomes the history boundary',
    file: 'compaction/compactor.ts',
    find: "    deps.log.append(sessionId, [{ type: 'compaction.failed', compactionId, reason }]);",
    replace:
      "    deps.log.append(sessionId, [{ type: 'compaction.ended', compactionId, messageId: deps.ids.next('msg'), summary: reason, recentContext: '', cutSeq }]);",
    clauses: ['CMP-07 (a)'],
  },
  {
    name: 'a compaction is recorded only once it completes',
    kind: 'state held only in memory',
    file: 'compaction/compactor.ts',
    find: "  deps.log.append(sessionId, [{ type: 'compaction.started', compactionId }]);\n  let summary = '';",
    replace: "  let summary = '';",
    also: [
      {
        file: 'compaction/compactor.ts',
        find: "    deps.log.append(sessionId, [{ type: 'compaction.failed', compactionId, reason }]);\n    return false;",
        replace: '    void reason;\n    return false;',
      },
    ],
    clauses: ['CMP-06 (a)'],
  },
  // CMP-08 (c): the new summary takes in the messages compacted since the earlier one.
  {
    name: 'a later summary is asked of the earlier summary alone',
    file: 'compaction/compactor.ts',
    find: "    `Conversation:\\n${folded.map(serialize).join('\\n')}`,",
    replace: "    previous ? '' : `Conversation:\\n${folded.map(serialize).join('\\n')}`,",
    clauses: ['CMP-08 (c)'],
  },
  {
    name: 'the newest folded message is left out of the summary request, as the recent context keeps it',
    kind: 'edge value',
    needs: 'manual-compaction',
    file: 'compaction/compactor.ts',
    find: "    `Conversation:\\n${folded.map(serialize).join('\\n')}`,",
    replace: "    `Conversation:\\n${folded.slice(0, -1).map(serialize).join('\\n')}`,",
    clauses: ['CMP-08 (c)'],
  },
  {
    name: 'a later summary request carries the conversation only up to the earlier cut',
    profile: 'sol',
    file: 'compaction/compactor.ts',
    find: '(m) => m.seq <= cutSeq || m.id === previous?.id,',
    replace: '(m) => m.seq <= (previous?.cutSeq ?? cutSeq) || m.id === previous?.id,',
    clauses: ['CMP-08 (c)'],
  },
  {
    name: 'a new summary ignores the earlier one',
    file: 'compaction/compactor.ts',
    find: "    previous ? `Update this earlier summary with the newer messages:\\n${previous.summary}` : '',",
    replace: "    '',",
    clauses: ['CMP-08 (a)'],
  },
  {
    name: 'the pending turn is dropped after a compaction',
    file: 'runner/drain.ts',
    find: "      const compacted = await compactBeforeTurn(deps, session, signal);\n      if (compacted === 'completed') continue;\n      return compacted;\n    }\n    const epoch",
    replace:
      "      const compacted = await compactBeforeTurn(deps, session, signal);\n      if (compacted === 'completed') return 'idle';\n      return compacted;\n    }\n    const epoch",
    clauses: ['CMP-09 (a)'],
  },
  {
    name: 'a context overflow is not recovered by compacting',
    file: 'runner/drain.ts',
    find: '      if (overflowRecovery || !foldable) {',
    replace: '      if (overflowRecovery || !foldable || turns > 0) {',
    clauses: ['CMP-10 (a)'],
  },
  {
    name: 'overflow recovery loops',
    file: 'runner/drain.ts',
    find: '      if (overflowRecovery || !foldable) {',
    replace: '      if (!overflowRecovery && !foldable) {',
    clauses: ['CMP-11 (a)'],
  },
  {
    name: 'the budget ignores the selected model',
    file: 'runner/drain.ts',
    find: '  const budget = budgetFor(deps.budget(), session.model ?? deps.provider.model);',
    replace: '  const budget = deps.budget();',
    clauses: ['CMP-12 (a)'],
  },
  {
    name: 'the budget assumes the smallest window configured',
    file: 'compaction/compaction-budget.ts',
    find: 'contextWindow: budget.modelWindows?.[model] ?? budget.contextWindow',
    replace: 'contextWindow: Math.min(budget.contextWindow, ...Object.values(budget.modelWindows ?? {}))',
    clauses: ['CMP-12 (b)'],
  },
  {
    name: 'the budget is the window of the model that answered last, not the selected one',
    kind: 'stale cache',
    file: 'runner/drain.ts',
    find: '  const budget = budgetFor(deps.budget(), session.model ?? deps.provider.model);',
    replace:
      "  const budget = budgetFor(deps.budget(), messages.findLast((m) => m.role === 'assistant')?.model || (session.model ?? deps.provider.model));",
    clauses: ['CMP-12 (a)'],
  },
  {
    name: 'the reserve adds the output allowance and the buffer',
    file: 'compaction/compaction-budget.ts',
    find: '  const reserve = Math.max(budget.outputAllowance, budget.buffer);',
    replace: '  const reserve = budget.outputAllowance + budget.buffer;',
    clauses: ['CMP-01 (g)'],
  },
  {
    name: 'the reserve is never under a tenth of the window',
    kind: 'edge value',
    file: 'compaction/compaction-budget.ts',
    find: '  const reserve = Math.max(budget.outputAllowance, budget.buffer);',
    replace: '  const reserve = Math.max(budget.outputAllowance, budget.buffer, budget.contextWindow / 10);',
    clauses: ['CMP-01 (h)'],
  },
  {
    name: 'a compaction folds the pending input into its summary',
    file: 'runner/drain.ts',
    find: '  if (await compact(deps, session.id, model, before, signal, deps.profile.injectsContinuation())) {',
    replace: '  if (await compact(deps, session.id, model, before, signal, true)) {',
    also: [
      {
        file: 'compaction/compactor.ts',
        find: '  const recentContext = recent(lines, RECENT_CONTEXT_TOKENS);',
        replace: "  const recentContext = '';",
      },
    ],
    // The pending input reaches the model inside the summary, not as the declared own message (compaction.pending-input).
    clauses: ['CMP-09 (a)'],
  },
  {
    name: 'an oversized request compacts even with nothing older to fold',
    file: 'runner/drain.ts',
    find: '  if (compactable(messages).folded.length === 0) return false;\n  if (session.compactionRequested) return true;',
    replace: '  if (session.compactionRequested) return true;',
    clauses: ['CMP-03 (b)'],
  },
  {
    name: 'an overflow with nothing to compact is compacted anyway',
    file: 'runner/drain.ts',
    find: '      if (overflowRecovery || !foldable) {',
    replace: '      if (overflowRecovery) {',
    clauses: ['CMP-11 (b)'],
  },
  {
    name: 'the finished summary is not stored',
    file: 'compaction/compactor.ts',
    find: 'summary, recentContext, cutSeq, tokensFreed },',
    replace: "summary: '', recentContext, cutSeq, tokensFreed },",
    clauses: ['CMP-06 (f)'],
  },
  {
    name: 'the recent context keeps the oldest compacted lines',
    file: 'compaction/compactor.ts',
    find: '  for (const line of [...lines].reverse()) {\n    used += estimateTokens(line) + 1;\n    if (used > tokens) break;\n    kept.unshift(line);',
    replace:
      '  for (const line of lines) {\n    used += estimateTokens(line) + 1;\n    if (used > tokens) break;\n    kept.push(line);',
    clauses: ['CMP-04 (f)'],
  },
  {
    name: 'a compaction deletes the messages it folded',
    file: 'history/history-projection.ts',
    find: "    case 'compaction.ended': {\n      const { summary, recentContext, cutSeq } = event;",
    replace:
      "    case 'compaction.ended': {\n      const { summary, recentContext, cutSeq } = event;\n      db.prepare('DELETE FROM messages WHERE session_id = ? AND seq <= ?').run(sessionId, cutSeq);",
    clauses: ['CMP-04 (a)'],
  },
  {
    name: 'the newest folded message crosses the compaction boundary',
    file: 'history/model-history.ts',
    find: "m.role !== 'compaction' && m.seq > checkpoint.cutSeq &&",
    replace: "m.role !== 'compaction' && m.seq >= checkpoint.cutSeq &&",
    clauses: ['CMP-05 (a)'],
  },
  {
    name: 'a later compaction summarizes the whole history again',
    kind: 'second occurrence',
    file: 'compaction/compactor.ts',
    find: "m.role !== 'compaction' && m.role !== 'system' && m.seq > (previous?.cutSeq ?? 0),",
    replace: "m.role !== 'compaction' && m.role !== 'system' && m.seq > 0,",
    clauses: ['CMP-08 (a)'],
  },
  {
    name: 'after an overflow compaction the turn is not rebuilt',
    file: 'runner/drain.ts',
    find: "      turns -= 1;\n      const compacted = await compactBeforeTurn(deps, session, signal);\n      if (compacted === 'completed') continue;",
    replace:
      "      turns -= 1;\n      const compacted = await compactBeforeTurn(deps, session, signal);\n      if (compacted === 'completed') return 'idle';",
    clauses: ['CMP-10 (c)'],
  },
  {
    name: 'a summary cut midway is kept as if it were complete',
    file: 'compaction/compactor.ts',
    find: "    deps.log.append(sessionId, [{ type: 'compaction.failed', compactionId, reason }]);\n    return false;\n  }\n  const lines",
    replace:
      "    if (summary === '') {\n      deps.log.append(sessionId, [{ type: 'compaction.failed', compactionId, reason }]);\n      return false;\n    }\n  }\n  const lines",
    clauses: ['CMP-07 (c)'],
  },
  {
    name: 'an interrupted compaction ends with what it has',
    file: 'compaction/compactor.ts',
    find: "    deps.log.append(sessionId, [{ type: 'compaction.failed', compactionId, reason }]);\n    return false;\n  }\n  const lines",
    replace:
      "    if (!signal.aborted) {\n      deps.log.append(sessionId, [{ type: 'compaction.failed', compactionId, reason }]);\n      return false;\n    }\n  }\n  const lines",
    clauses: ['CMP-07 (b)'],
  },
  {
    name: 'the estimate leaves out the tool definitions',
    kind: 'tools left out of the estimate',
    file: 'compaction/compaction-budget.ts',
    find: '  return estimateTokens(JSON.stringify(request)) > budget.contextWindow - reserve;',
    replace: '  return estimateTokens(JSON.stringify({ ...request, tools: [] })) > budget.contextWindow - reserve;',
    clauses: ['CMP-01 (b)'],
  },
  {
    name: 'the compaction check estimates the conversation without the advertised tools',
    kind: 'tools left out of the estimate',
    file: 'runner/drain.ts',
    find: '  return overBudget(providerRequest(deps, session, epoch.parts), budget);',
    replace: '  return overBudget({ ...providerRequest(deps, session, epoch.parts), tools: [] }, budget);',
    clauses: ['CMP-01 (b)'],
  },
  {
    // The runtime's own tools are weighed; those a location contributed later are not.
    name: 'the estimate weighs only the built-in tools, not those a location contributed',
    kind: 'tools left out of the estimate',
    needs: 'tool-contributions',
    file: 'tools/tool-registry.ts',
    find: '  private available(location: string): Tool[] {',
    replace:
      '  builtIn(): ToolDefinition[] {\n    return [...this.tools.values()].map(({ name, description, parameters }) => ({ name, description, parameters }));\n  }\n\n  private available(location: string): Tool[] {',
    also: [
      {
        file: 'runner/drain.ts',
        find: '  return overBudget(providerRequest(deps, session, epoch.parts), budget);',
        replace:
          '  return overBudget({ ...providerRequest(deps, session, epoch.parts), tools: deps.tools.builtIn() }, budget);',
      },
    ],
    clauses: ['CMP-01 (b)'],
  },
  {
    // The compactor writes out only the tool results that succeeded: a failed call's error is lost.
    // Only a compaction the user asks for folds a turn that ends in a short reply after a failed
    // call, so only a runtime that offers it catches this.
    name: 'the serialized recent context leaves out failed tool outputs',
    file: 'compaction/compactor.ts',
    find: "      return `tool ${message.name}: ${message.output ?? ''}`;",
    replace: "      return message.status === 'error' ? '' : `tool ${message.name}: ${message.output ?? ''}`;",
    clauses: ['CMP-04 (f)'],
  },
  {
    // Failed tool results are kept past the cut so the model does not repeat the failing call.
    name: 'a failed tool result crosses the compaction boundary',
    kind: 'counting by status',
    file: 'history/model-history.ts',
    find: "m.role !== 'compaction' && m.seq > checkpoint.cutSeq &&",
    replace: "m.role !== 'compaction' && (m.seq > checkpoint.cutSeq || (m.role === 'tool' && m.status === 'error')) &&",
    clauses: ['CMP-05 (b)'],
  },
  {
    // What the session stored is weighed, not what it sends: after a compaction the folded messages
    // still count, and the next turn compacts again at once.
    name: 'the budget estimate counts the durable history, folded messages included, after a compaction',
    kind: 'usage after compaction',
    file: 'runner/drain.ts',
    find: '  return overBudget(providerRequest(deps, session, epoch.parts), budget);',
    replace: `  const request = providerRequest(deps, session, epoch.parts);
  const stored = messages.filter((m) => m.role !== 'compaction') as typeof request.history;
  return overBudget({ ...request, history: stored }, budget);`,
    clauses: ['CMP-01 (a)'],
  },
  {
    // Tool results are taken for transient: only what the user and the model wrote is weighed.
    name: 'the budget estimate leaves tool results out of the history',
    kind: 'tools left out of the estimate',
    file: 'compaction/compaction-budget.ts',
    find: '  return estimateTokens(JSON.stringify(request)) > budget.contextWindow - reserve;',
    replace: `  const history = request.history.filter((m) => m.role !== 'tool');
  return estimateTokens(JSON.stringify({ ...request, history })) > budget.contextWindow - reserve;`,
    clauses: ['CMP-01 (c)'],
  },
  {
    // An overflow refusal is answered with a compaction whatever streamed before it.
    name: 'an overflow refusal after streamed output still compacts and rebuilds the turn',
    kind: 'retry after partial output',
    file: 'runner/provider-turn.ts',
    find: `      error instanceof ProviderRejected &&
      !turn.producedOutput &&
      dialect.isContextOverflow(error.status, error.body)`,
    replace: `      error instanceof ProviderRejected &&
      dialect.isContextOverflow(error.status, error.body)`,
    clauses: ['CMP-11 (d)'],
  },
  {
    name: 'a streamed tool call is no output: an overflow after it is compacted and the turn rebuilt',
    kind: 'partial comparison',
    file: 'runner/turn-projection.ts',
    find: '    return this.messageId !== undefined;',
    replace: "    return this.text !== '' || this.reasoning !== undefined;",
    clauses: ['CMP-11 (e)'],
  },
  {
    name: 'a stream broken off by an overflow after only tool calls is sent again',
    kind: 'retry after partial output',
    profile: 'sol',
    file: 'runner/provider-retries.ts',
    find: '            received = true;',
    replace: "            if (chunk.type !== 'tool-call') received = true;",
    also: [
      {
        file: 'runner/provider-retries.ts',
        find: '          const reason = received || overflow || signal.aborted || retry > MAX_RETRIES ? undefined : retryReason(error);',
        replace:
          "          const reason = received || signal.aborted || retry > MAX_RETRIES ? undefined : overflow && error.status === 200 ? 'the stream broke off' : overflow ? undefined : retryReason(error);",
      },
    ],
    clauses: ['CMP-11 (e)'],
  },
  // CMP-05 (c): no provider-native reasoning from before the compaction reaches the model after it.
  {
    name: 'folded answers that carry signed reasoning stay in view, for the provider that asks for them',
    kind: 'partial comparison',
    file: 'history/model-history.ts',
    find: "m.role !== 'compaction' && m.seq > checkpoint.cutSeq && !(m.role === 'system' && m.seq < checkpoint.seq),",
    replace:
      "m.role !== 'compaction' && (m.seq > checkpoint.cutSeq || (m.role === 'assistant' && m.reasoning?.signature !== undefined)) && !(m.role === 'system' && m.seq < checkpoint.seq),",
    clauses: ['CMP-05 (c)'],
  },
  {
    name: "the checkpoint's answer is the newest folded answer with its text replaced, its reasoning kept",
    kind: 'stale cache',
    profile: 'sol',
    file: 'history/model-history.ts',
    find: '  return [...checkpointMessages(checkpoint, form), ...after];',
    replace:
      "  // The checkpoint's answer is the newest folded answer with its text replaced.\n  const newest = messages.findLast((m) => m.role === 'assistant' && m.seq <= checkpoint.cutSeq);\n  const stale = (m: ModelMessage): ModelMessage =>\n    m.role === 'assistant' && newest?.role === 'assistant' ? { ...newest, ...m, model: newest.model, reasoning: newest.reasoning } : m;\n  return [...checkpointMessages(checkpoint, form).map(stale), ...after];",
    clauses: ['CMP-05 (c)'],
  },
  // CMP-01 (d): the estimate is made before every provider turn of a drain.
  {
    name: "the drain's first estimate stands for all its turns until it compacts",
    kind: 'stale cache',
    file: 'runner/drain.ts',
    find: '    if (compactionDue(deps, session)) {\n',
    replace: '    if ((dueAtStart ??= compactionDue(deps, session))) {\n      dueAtStart = undefined;\n',
    also: [
      {
        file: 'runner/drain.ts',
        find: '  let turns = 0;\n',
        replace: '  let turns = 0;\n  let dueAtStart: boolean | undefined;\n',
      },
    ],
    clauses: ['CMP-01 (d)'],
  },
  {
    name: 'the request is estimated only at a boundary that promotes new input',
    kind: 'ordering in time',
    file: 'runner/drain.ts',
    find: '    if (compactionDue(deps, session)) {\n',
    replace: '    if (promoted > 0 && compactionDue(deps, session)) {\n',
    clauses: ['CMP-01 (d)'],
  },
  // CMP-06 (d): the durable end record keeps the serialized recent context.
  {
    name: 'the recent context is kept in process memory, not in the durable end record',
    kind: 'state held only in memory',
    file: 'compaction/compactor.ts',
    find: '      summary,\n      recentContext,\n      cutSeq,\n      tokensFreed,',
    replace:
      "      summary,\n      recentContext: ((deps.log as unknown as { recentInMemory?: Map<number, string> }).recentInMemory ??= new Map()).set(cutSeq, recentContext) && '',\n      cutSeq,\n      tokensFreed,",
    also: [READS_RECENT_FROM_MEMORY],
    clauses: ['CMP-06 (d)'],
  },
  {
    name: 'the durable end record keeps the recent context without its newest message',
    kind: 'edge value',
    file: 'compaction/compactor.ts',
    find: '      summary,\n      recentContext,\n      cutSeq,\n      tokensFreed,',
    replace:
      '      summary,\n      recentContext: ((deps.log as unknown as { recentInMemory?: Map<number, string> }).recentInMemory ??= new Map()).set(cutSeq, recentContext) && recent(lines.slice(0, -1), RECENT_CONTEXT_TOKENS),\n      cutSeq,\n      tokensFreed,',
    also: [READS_RECENT_FROM_MEMORY],
    clauses: ['CMP-06 (d)'],
  },
  // CMP-06 (a): the start of an attempt is durable when the attempt begins.
  {
    name: 'the start of a compaction is stored only once its summary has arrived',
    kind: 'ordering in time',
    file: 'compaction/compactor.ts',
    find: "  deps.log.append(sessionId, [{ type: 'compaction.started', compactionId }]);\n",
    replace: '',
    also: [
      {
        file: 'compaction/compactor.ts',
        find: '  const lines = folded.map(serialize);\n',
        replace:
          "  deps.log.append(sessionId, [{ type: 'compaction.started', compactionId }]);\n  const lines = folded.map(serialize);\n",
      },
    ],
    clauses: ['CMP-06 (a)'],
  },
  {
    name: 'a final overflow is reported as a plain provider error',
    file: 'runner/drain.ts',
    find: "        deps.log.append(sessionId, [{ type: 'session.failed', code: 'context-overflow', message }]);",
    replace: "        deps.log.append(sessionId, [{ type: 'session.failed', code: 'provider-error', message }]);",
    clauses: ['CMP-11 (c)'],
  },
  {
    name: 'an overflow with nothing to compact is sent once more',
    file: 'runner/drain.ts',
    find: '      if (overflowRecovery || !foldable) {',
    replace: '      if (overflowRecovery) {',
    also: [
      {
        file: 'runner/drain.ts',
        find: '      overflowRecovery = true;\n      turns -= 1;\n',
        replace: '      overflowRecovery = true;\n      turns -= 1;\n      if (!foldable) continue;\n',
      },
    ],
    clauses: ['CMP-11 (b)'],
  },
  {
    name: 'a second overflow is reported as a failed compaction',
    file: 'runner/drain.ts',
    find: "      deps.log.append(sessionId, [{ type: 'session.failed', code: 'context-overflow', message }]);",
    replace:
      "      deps.log.append(sessionId, [{ type: 'session.failed', code: overflowRecovery ? 'compaction-failed' : 'context-overflow', message }]);",
    clauses: ['CMP-11 (c)'],
  },
  {
    name: 'only a streamed tool call counts as output before an overflow',
    file: 'runner/turn-projection.ts',
    find: '    return this.messageId !== undefined;',
    replace: '    return this.callIds.size > 0 || this.call !== undefined;',
    clauses: ['CMP-11 (d)'],
  },
  {
    // A safety margin on top of the reserve: many runtimes compact at nine tenths of what is usable.
    name: 'a request is compacted from nine tenths of the window minus the reserve',
    kind: 'edge value',
    file: 'compaction/compaction-budget.ts',
    find: '  return estimateTokens(JSON.stringify(request)) > budget.contextWindow - reserve;',
    replace: '  return estimateTokens(JSON.stringify(request)) > (budget.contextWindow - reserve) * 0.9;',
    clauses: ['CMP-01 (e)'],
  },
  {
    // A high-water mark: the session's estimate never comes down, a compaction's included.
    name: 'the estimate is the highest the session ever weighed: a compaction does not lower it',
    kind: 'stale cache',
    file: 'runner/drain.ts',
    find: '  return overBudget(providerRequest(deps, session, epoch.parts), budget);',
    replace: `  const weight = JSON.stringify(providerRequest(deps, session, epoch.parts)).length;
  const highest = Math.max(((globalThis as { highWater?: Map<string, number> }).highWater ??= new Map()).get(session.id) ?? 0, weight);
  (globalThis as { highWater?: Map<string, number> }).highWater!.set(session.id, highest);
  return Math.round(highest / 4) > budget.contextWindow - Math.max(budget.outputAllowance, budget.buffer);`,
    clauses: ['CMP-01 (a)'],
  },
  {
    name: 'the request is estimated at a token per three characters',
    file: 'compaction/compaction-budget.ts',
    find: '  return Math.round(text.length / 4);',
    replace: '  return Math.ceil(text.length / 3);',
    clauses: ['CMP-01 (e)'],
  },
  {
    name: 'the reserve is the smaller of the output allowance and the compaction buffer',
    file: 'compaction/compaction-budget.ts',
    find: 'const reserve = Math.max(budget.outputAllowance, budget.buffer);',
    replace: 'const reserve = Math.min(budget.outputAllowance, budget.buffer);',
    clauses: ['CMP-01 (f)'],
  },
  {
    name: 'the estimate counts the output allowance as part of the request, and the reserve again',
    file: 'compaction/compaction-budget.ts',
    find: '  return estimateTokens(JSON.stringify(request)) > budget.contextWindow - reserve;',
    replace:
      '  return estimateTokens(JSON.stringify(request)) + budget.outputAllowance > budget.contextWindow - reserve;',
    clauses: ['CMP-01 (g)'],
  },
  {
    // The estimate is read after the turn it weighs: the first turn of a drain goes out over budget.
    name: 'the first turn of a drain is sent before the estimate is consulted',
    kind: 'ordering in time',
    file: 'runner/drain.ts',
    find: '    if (compactionDue(deps, session)) {',
    replace: '    if (!first && compactionDue(deps, session)) {',
    clauses: ['CMP-02 (b)'],
  },
  {
    // The estimate of one boundary decides the next: the turn goes out over budget once first.
    name: 'the compaction check uses the estimate of the boundary before',
    kind: 'ordering in time',
    file: 'runner/drain.ts',
    find: '  return overBudget(providerRequest(deps, session, epoch.parts), budget);',
    replace: `  const over = overBudget(providerRequest(deps, session, epoch.parts), budget);
  const last = ((globalThis as { lastOver?: Map<string, boolean> }).lastOver ??= new Map()).get(session.id) ?? false;
  (globalThis as { lastOver?: Map<string, boolean> }).lastOver!.set(session.id, over);
  return last;`,
    clauses: ['CMP-02 (b)'],
  },
  {
    name: 'the checkpoint message shows in the user transcript',
    file: 'history/history-projection.ts',
    find: "        'compaction',\n        'completed',\n        { summary, recentContext, cutSeq },\n        true,",
    replace: "        'compaction',\n        'completed',\n        { summary, recentContext, cutSeq },\n        false,",
    clauses: ['CMP-04 (b)'],
  },
  {
    name: 'the summary keeps only its first streamed fragment',
    kind: 'retry after partial output',
    file: 'compaction/compactor.ts',
    find: '      summary += chunk.delta;',
    replace: '      summary ||= chunk.delta;',
    clauses: ['CMP-04 (c)'],
  },
  {
    name: 'the checkpoint shows in the transcript the runtime reports',
    file: 'adapter/kit-views.ts',
    find: '      return { ...base, text: message.summary };',
    replace: '      return { ...base, hidden: false, text: message.summary };',
    clauses: ['CMP-04 (b)'],
  },
  {
    name: 'the cut is recorded at the oldest folded message, not the newest',
    file: 'compaction/compactor.ts',
    find: 'cutSeq: folded.at(-1)!.seq',
    replace: 'cutSeq: folded[0]!.seq',
    clauses: ['CMP-04 (d)'],
  },
  {
    name: 'the recent context is bounded in lines, not tokens',
    file: 'compaction/compactor.ts',
    find: '    used += estimateTokens(line) + 1;',
    replace: '    used += 1;',
    clauses: ['CMP-04 (e)'],
  },
  {
    // The model's history gets the summary from the process's memory; the durable end record goes without.
    name: 'the end record of a compaction leaves its summary out',
    kind: 'facts only the protocol reports',
    file: 'compaction/compactor.ts',
    find: "      messageId: deps.ids.next('msg'),\n      summary,\n      recentContext,",
    replace:
      "      messageId: ((globalThis as { summaries?: Map<string, string> }).summaries ??= new Map()).set(compactionId, summary) && deps.ids.next('msg'),\n      summary: '',\n      recentContext,",
    also: [
      {
        file: 'history/history-projection.ts',
        find: "    case 'compaction.ended': {\n      const { summary, recentContext, cutSeq } = event;",
        replace:
          "    case 'compaction.ended': {\n      const { recentContext, cutSeq } = event;\n      const summary = (globalThis as { summaries?: Map<string, string> }).summaries?.get(event.compactionId) ?? event.summary;",
      },
    ],
    clauses: ['CMP-06 (c)'],
  },
  {
    name: "a cut summary stream's partial summary is kept as a completed compaction",
    file: 'compaction/compactor.ts',
    find: "    const reason = signal.aborted ? 'interrupted' : error instanceof Error ? error.message : String(error);",
    replace:
      "    if (summary !== '') {\n      deps.log.append(sessionId, [{ type: 'compaction.ended', compactionId, messageId: deps.ids.next('msg'), summary, recentContext: '', cutSeq, tokensFreed: 0 }]);\n      return true;\n    }\n    const reason = signal.aborted ? 'interrupted' : error instanceof Error ? error.message : String(error);",
    clauses: ['CMP-06 (e)'],
  },
  {
    name: 'a checkpoint takes effect for the model only once user input follows it',
    file: 'history/model-history.ts',
    find: "  const checkpoint = messages.findLast((m): m is CompactionMessage => m.role === 'compaction');",
    replace:
      "  const checkpoint = messages.findLast((m, i): m is CompactionMessage => m.role === 'compaction' && messages.slice(i + 1).some((u) => u.role === 'user'));",
    clauses: ['CMP-06 (f)'],
  },
  {
    name: 'a later summary is asked of every message up to the cut, those folded before included',
    file: 'compaction/compactor.ts',
    find: "    `Conversation:\\n${folded.map(serialize).join('\\n')}`,",
    replace:
      "    `Conversation:\\n${messages.filter((m) => m.seq <= cutSeq).map(serialize).filter(Boolean).join('\\n')}`,",
    clauses: ['CMP-08 (b)'],
  },
  {
    // The request is built from a history read before the compaction, keyed by what a compaction does not change.
    name: 'the turn after a compaction is built from the history read before it',
    kind: 'stale cache',
    file: 'runner/provider-turn.ts',
    find: '    history: modelHistory(deps.history.messages(session.id), deps.profile.checkpointForm(), deps.prunedMessage?.()),',
    replace:
      "    history: (() => {\n      const messages = deps.history.messages(session.id);\n      const key = `${session.id} ${messages.filter((m) => m.role !== 'compaction').length}`;\n      const cache = ((deps.history as { requestCache?: Map<string, ReturnType<typeof modelHistory>> }).requestCache ??= new Map());\n      if (!cache.has(key)) cache.set(key, modelHistory(messages, deps.profile.checkpointForm(), deps.prunedMessage?.()));\n      return cache.get(key)!;\n    })(),",
    clauses: ['CMP-09 (b)'],
  },
  {
    name: 'a refusal is answered by a compaction, and the rebuilt turn by another',
    kind: 'second occurrence',
    file: 'runner/drain.ts',
    find: '      overflowRecovery = true;\n      turns -= 1;\n      const compacted = await compactBeforeTurn(deps, session, signal);',
    replace:
      "      overflowRecovery = true;\n      turns -= 1;\n      const first = await compactBeforeTurn(deps, session, signal);\n      const compacted = first === 'completed' ? await compactBeforeTurn(deps, session, signal) : first;",
    clauses: ['CMP-10 (b)'],
  },
  {
    name: 'a second refusal of the rebuilt turn is sent once more',
    kind: 'edge value',
    file: 'runner/drain.ts',
    find: '      if (overflowRecovery || !foldable) {',
    replace:
      '      if (overflowRecovery && !retriedOverflow) {\n        retriedOverflow = true;\n        turns -= 1;\n        continue;\n      }\n      if (overflowRecovery || !foldable) {',
    also: [
      {
        file: 'runner/drain.ts',
        find: '  let overflowRecovery = false;\n',
        replace: '  let overflowRecovery = false;\n  let retriedOverflow = false;\n',
      },
    ],
    clauses: ['CMP-10 (d)'],
  },
  {
    name: 'an overflow refusal is compacted only where the estimate also finds the request over budget',
    file: 'runner/drain.ts',
    find: '      const foldable = compactable(deps.history.messages(sessionId)).folded.length > 0;',
    replace:
      '      const foldable =\n        compactable(deps.history.messages(sessionId)).folded.length > 0 &&\n        overBudget(providerRequest(deps, session, epoch.parts), budgetFor(deps.budget(), session.model ?? deps.provider.model));',
    clauses: ['CMP-10 (a)'],
  },
  {
    name: 'an overflow refusal is answered by two compactions',
    file: 'runner/drain.ts',
    find: '      turns -= 1;\n      const compacted = await compactBeforeTurn(deps, session, signal);',
    replace:
      '      turns -= 1;\n      await compact(deps, session.id, session.model ?? deps.provider.model, deps.history.messages(sessionId), signal);\n      const compacted = await compactBeforeTurn(deps, session, signal);',
    clauses: ['CMP-10 (b)'],
  },
  {
    name: 'the overflow refusal is recorded as a failure of the session before it is recovered',
    file: 'runner/drain.ts',
    find: '      overflowRecovery = true;\n',
    replace:
      "      overflowRecovery = true;\n      deps.log.append(sessionId, [{ type: 'session.failed', code: 'context-overflow', message: 'the request overflowed the context window' }]);\n",
    clauses: ['CMP-10 (c)'],
  },
  {
    // A fallback that sends the turn uncompacted and drops its answer: the boundary then runs the turn again.
    name: 'after a failed compaction the pending turn is sent uncompacted, its answer dropped, and sent again',
    kind: 'second occurrence',
    file: 'runner/drain.ts',
    find: "      const compacted = await compactBeforeTurn(deps, session, signal);\n      if (compacted === 'completed') continue;\n      return compacted;\n    }\n    const epoch = await context.admitChanges();",
    replace:
      "      const compacted = await compactBeforeTurn(deps, session, signal);\n      if (compacted === 'completed') continue;\n      if (compacted === 'interrupted') return compacted;\n      const fallback = await context.admitChanges();\n      try {\n        for await (const _chunk of streamTurn(dialectFor(deps.provider.dialect), deps.provider, providerRequest(deps, session, fallback.parts), signal)) {\n        }\n      } catch {}\n    }\n    const epoch = await context.admitChanges();",
    also: [
      {
        file: 'runner/drain.ts',
        find: "import type { Profile } from '../profile.js';",
        replace:
          "import type { Profile } from '../profile.js';\nimport { streamTurn } from '../provider/stream-turn.js';\nimport { dialectFor } from '../provider/dialects.js';",
      },
    ],
    clauses: ['CMP-07 (d)'],
  },
];
