import type { Mutant } from './mutant.js';

/** Compaction and message conversion of the Go session package (profile sol). */
export const scp: Mutant[] = [
  {
    name: 'the results of one assistant message travel as one tool message',
    profile: 'sol',
    file: 'provider/openai-chat.ts',
    find: '          ...request.history.flatMap(toChatMessages),',
    replace: `          ...request.history.flatMap(toChatMessages).reduce<ChatMessage[]>((out, m) => {
            const last = out.at(-1);
            if (m.role === 'tool' && last?.role === 'tool') last.content += '\\n' + m.content;
            else out.push({ ...m });
            return out;
          }, []),`,
    clauses: ['SCP-06 (a)'],
  },
  {
    name: 'a tool message sends only its first result',
    kind: 'second occurrence',
    profile: 'sol',
    file: 'provider/openai-chat.ts',
    find: '          ...request.history.flatMap(toChatMessages),',
    replace:
      "          ...request.history.flatMap(toChatMessages).filter((m, i, all) => !(m.role === 'tool' && all[i - 1]?.role === 'tool')),",
    clauses: ['SCP-06 (b)'],
  },
  {
    name: 'the results of one tool message are sent last first',
    kind: 'ordering in time',
    profile: 'sol',
    file: 'provider/openai-chat.ts',
    find: '          ...request.history.flatMap(toChatMessages),',
    replace: `          ...request.history.flatMap(toChatMessages).reduce<ChatMessage[]>((out, m) => {
            // A run of results is stacked as it is read.
            let at = out.length;
            if (m.role === 'tool') while (at > 0 && out[at - 1]!.role === 'tool') at -= 1;
            out.splice(at, 0, m);
            return out;
          }, []),`,
    clauses: ['SCP-06 (a)'],
  },
  {
    name: 'every result of one tool message answers the first call of the group',
    kind: 'second occurrence',
    profile: 'sol',
    file: 'provider/openai-chat.ts',
    find: '          ...request.history.flatMap(toChatMessages),',
    replace: `          ...request.history.flatMap(toChatMessages).map((m, i, all) => {
            if (m.role !== 'tool') return m;
            let first = i;
            while (first > 0 && all[first - 1]!.role === 'tool') first -= 1;
            return { ...m, tool_call_id: (all[first] as { tool_call_id: string }).tool_call_id };
          }),`,
    clauses: ['SCP-06 (b)'],
  },
  {
    name: 'an image is sent by its source instead of its bytes',
    profile: 'sol',
    file: 'provider/openai-chat.ts',
    find: '  const url = `data:${attachment.mediaType};base64,${attachment.data}`;\n  return attachment.mediaType.startsWith',
    replace:
      '  const url = (attachment as { source?: string }).source ?? `data:${attachment.mediaType};base64,${attachment.data}`;\n  return attachment.mediaType.startsWith',
    clauses: ['SCP-05 (a)'],
  },
  {
    name: 'an image block carries its attachment metadata along',
    profile: 'sol',
    file: 'provider/anthropic-messages.ts',
    find: "    source: { type: 'base64', media_type: attachment.mediaType, data: attachment.data },\n  };",
    replace:
      "    source: { type: 'base64', media_type: attachment.mediaType, data: attachment.data },\n    ...((attachment as { source?: string }).source ? { title: (attachment as { source?: string }).source } : {}),\n  } as MediaBlock;",
    clauses: ['SCP-05 (a)'],
  },
  {
    name: "a file's source goes out as its file name",
    profile: 'sol',
    file: 'provider/openai-chat.ts',
    find: "file: { filename: attachment.filename ?? 'file', file_data: url }",
    replace:
      "file: { filename: (attachment as { source?: string }).source ?? attachment.filename ?? 'file', file_data: url }",
    clauses: ['SCP-05 (b)'],
  },
  {
    name: "an attachment's source is stripped before the prompt is stored, so the session loses it",
    kind: 'facts only the protocol reports',
    profile: 'sol',
    file: 'runtime.ts',
    find: '      delivery,\n      prompt: input.prompt,\n    });',
    replace:
      '      delivery,\n      prompt: { ...input.prompt, parts: input.prompt.parts.map((part) => ({ ...part, source: undefined })) },\n    });',
    clauses: ['SCP-05 (c)'],
  },
  {
    // The origin of a file is told to the model beside it.
    name: 'a file attachment goes out with a line naming where it came from',
    profile: 'sol',
    file: 'provider/openai-chat.ts',
    find: "  return prompt.parts.map((part) =>\n    part.type === 'text' ? { type: 'text' as const, text: part.text } : mediaPart(part),\n  );",
    replace:
      "  return prompt.parts.flatMap((part) =>\n    part.type === 'text' ? [{ type: 'text' as const, text: part.text }] : part.type === 'file' && part.source ? [{ type: 'text' as const, text: `Attached from ${part.source}:` }, mediaPart(part)] : [mediaPart(part)],\n  );",
    clauses: ['SCP-05 (b)'],
  },
  {
    name: "a file attachment's source is dropped before the prompt is stored; an image's is kept",
    kind: 'one kind of media taken for another',
    profile: 'sol',
    file: 'runtime.ts',
    find: '      delivery,\n      prompt: input.prompt,\n    });',
    replace:
      "      delivery,\n      prompt: { ...input.prompt, parts: input.prompt.parts.map((part) => (part.type === 'file' ? { ...part, source: undefined } : part)) },\n    });",
    clauses: ['SCP-05 (c)'],
  },
  {
    name: 'automatic compaction is off unless turned on',
    profile: 'sol',
    file: 'runner/drain.ts',
    find: '  if (deps.profile.obeysCompactionSwitches() && deps.budget().auto === false) return false;',
    replace: '  if (deps.profile.obeysCompactionSwitches() && !deps.budget().auto) return false;',
    clauses: ['SCP-04 (a)'],
  },
  {
    name: 'turning automatic compaction off is ignored',
    profile: 'sol',
    file: 'runner/drain.ts',
    find: '  if (deps.profile.obeysCompactionSwitches() && deps.budget().auto === false) return false;\n',
    replace: '',
    clauses: ['SCP-04 (c)'],
  },
  {
    name: 'turning pruning off is ignored',
    profile: 'sol',
    file: 'runner/drain.ts',
    find: '    if (deps.profile.prunesToolOutputs() && deps.budget().prune !== false) prune(deps, sessionId);',
    replace: '    if (deps.profile.prunesToolOutputs()) prune(deps, sessionId);',
    clauses: ['SCP-04 (d)'],
  },
  {
    name: 'pruning is off unless turned on',
    profile: 'sol',
    file: 'runner/drain.ts',
    find: '    if (deps.profile.prunesToolOutputs() && deps.budget().prune !== false) prune(deps, sessionId);',
    replace: '    if (deps.profile.prunesToolOutputs() && deps.budget().prune === true) prune(deps, sessionId);',
    clauses: ['SCP-04 (b)'],
  },
  {
    // An unset switch follows the other one, and is off when both are unset.
    name: 'automatic compaction left unset follows the pruning switch, off when that is unset too',
    kind: 'configuration precedence',
    profile: 'sol',
    file: 'runner/drain.ts',
    find: '  if (deps.profile.obeysCompactionSwitches() && deps.budget().auto === false) return false;',
    replace:
      '  if (deps.profile.obeysCompactionSwitches() && !(deps.budget().auto ?? deps.budget().prune ?? false)) return false;',
    clauses: ['SCP-04 (a)'],
  },
  {
    name: 'pruning left unset follows the automatic compaction switch, off when that is unset too',
    kind: 'configuration precedence',
    profile: 'sol',
    file: 'runner/drain.ts',
    find: '    if (deps.profile.prunesToolOutputs() && deps.budget().prune !== false) prune(deps, sessionId);',
    replace:
      '    if (deps.profile.prunesToolOutputs() && (deps.budget().prune ?? deps.budget().auto ?? false)) prune(deps, sessionId);',
    clauses: ['SCP-04 (b)'],
  },
  {
    name: 'pruning is turned off by the automatic compaction switch, not its own',
    profile: 'sol',
    file: 'runner/drain.ts',
    find: '    if (deps.profile.prunesToolOutputs() && deps.budget().prune !== false) prune(deps, sessionId);',
    replace: '    if (deps.profile.prunesToolOutputs() && deps.budget().auto !== false) prune(deps, sessionId);',
    clauses: ['SCP-04 (d)'],
  },
  {
    name: 'no continue message follows a compaction in the agent loop',
    profile: 'sol',
    file: 'runner/drain.ts',
    find: '    } else if (deps.profile.continuesAfterCompaction() && !awaitsAnswer(',
    replace: '    } else if (false && !awaitsAnswer(',
    clauses: ['SCP-01 (a)'],
  },
  {
    name: 'the drain ends after a compaction that leaves nothing to answer',
    profile: 'sol',
    file: 'runner/drain.ts',
    find: "      deps.log.append(session.id, [{ type: 'continuation.injected', messageId: deps.ids.next('msg'), prompt: { parts: [{ type: 'text', text: CONTINUE_TEXT }] } }]);",
    replace: "      return 'failed';",
    clauses: ['SCP-01 (a)'],
  },
  {
    name: 'the compaction request has no system prompt',
    profile: 'sol',
    file: 'compaction/compactor.ts',
    find: 'return { model, baseline: [COMPACTION_SYSTEM_PROMPT], tools: [],',
    replace: 'return { model, baseline: [], tools: [],',
    clauses: ['SCP-02 (a)'],
  },
  {
    name: 'the output limit of a compaction is not capped at 32000',
    profile: 'sol',
    file: 'compaction/compactor.ts',
    find: 'const maxOutputTokens = Math.min(deps.budget().outputAllowance, OUTPUT_TOKEN_MAX);',
    replace: 'const maxOutputTokens = deps.budget().outputAllowance;',
    clauses: ['SCP-02 (g)'],
  },
  {
    name: "a compaction uses the runtime's default model",
    kind: 'configuration precedence',
    profile: 'sol',
    file: 'runner/drain.ts',
    find: '  const model = session.model ?? deps.provider.model;\n  const before',
    replace: '  const model = deps.provider.model;\n  const before',
    clauses: ['SCP-02 (b)'],
  },
  {
    name: "a compaction ignores the compaction agent's model",
    kind: 'configuration precedence',
    profile: 'sol',
    file: 'compaction/compactor.ts',
    find: 'summaryRequest(deps, compactionId, deps.budget().model ?? model,',
    replace: 'summaryRequest(deps, compactionId, model,',
    clauses: ['SCP-02 (c)'],
  },
  {
    name: "the compaction agent's model stays selected for the turns after the compaction",
    kind: 'configuration precedence',
    profile: 'sol',
    file: 'runner/provider-turn.ts',
    find: '    model: session.model ?? deps.provider.model,',
    replace:
      "    model: (deps.history.messages(session.id).some((m) => m.role === 'compaction') ? (deps as { budget?: () => { model?: string } }).budget?.().model : undefined) ?? session.model ?? deps.provider.model,",
    clauses: ['SCP-02 (c)'],
  },
  // SCP-02 (e): the session's provider options go with a compaction request.
  {
    // The summary request is configured as the compaction agent's own, whose provider options are none.
    name: "a compaction request carries the compaction agent's provider options, not the session's",
    kind: 'configuration precedence',
    profile: 'sol',
    file: 'compaction/compactor.ts',
    find: "      // The session's provider options go with it (SCP-02).\n      options: sessionProviderOptions(sessionId),",
    replace: '',
    clauses: ['SCP-02 (e)'],
  },
  {
    // The prompt cache key is taken from the request at hand, the compaction, not from its session.
    name: 'a compaction request keys its prompt cache to the compaction, not to the session',
    kind: 'identity in the wrong scope',
    profile: 'sol',
    file: 'compaction/compactor.ts',
    find: "      // The session's provider options go with it (SCP-02).\n      options: sessionProviderOptions(sessionId),",
    replace: '      options: sessionProviderOptions(compactionId),',
    clauses: ['SCP-02 (e)'],
  },
  {
    name: 'the compaction prompt comes before the conversation',
    profile: 'sol',
    file: 'compaction/compactor.ts',
    find: 'history: [...conversation, ask(COMPACTION_PROMPT)]',
    replace: 'history: [ask(COMPACTION_PROMPT), ...conversation]',
    clauses: ['SCP-02 (d)'],
  },
  {
    name: 'the summary reaches the model as a user message',
    profile: 'sol',
    file: 'history/model-history.ts',
    find: "  if (form === 'trigger-answer') {",
    replace: '  if (false) {',
    clauses: ['SCP-03 (a)'],
  },
  {
    name: 'the trigger question follows the summary',
    profile: 'sol',
    file: 'history/model-history.ts',
    find: `      { id, seq, hidden: true, role: 'user', prompt: { parts: [{ type: 'text', text: COMPACTION_TRIGGER }] } },
      { id, seq, hidden: true, role: 'assistant', status: 'completed', model: '', text: \`\${checkpoint.summary}\\n\\n\${recent}\`, toolCalls: [] },`,
    replace: `      { id, seq, hidden: true, role: 'assistant', status: 'completed', model: '', text: \`\${checkpoint.summary}\\n\\n\${recent}\`, toolCalls: [] },
      { id, seq, hidden: true, role: 'user', prompt: { parts: [{ type: 'text', text: COMPACTION_TRIGGER }] } },`,
    clauses: ['SCP-03 (b)'],
  },
  {
    // The history replays the question the compaction request really asked.
    name: 'a compaction in history reaches the model as the compaction prompt',
    profile: 'sol',
    file: 'history/model-history.ts',
    find: "      { id, seq, hidden: true, role: 'user', prompt: { parts: [{ type: 'text', text: COMPACTION_TRIGGER }] } },",
    replace:
      "      { id, seq, hidden: true, role: 'user', prompt: { parts: [{ type: 'text', text: 'Provide a detailed summary of our conversation above, for continuing it in a new session that will not have access to it: what we did, what we are doing, which files we are working on and what we will do next.' }] } },",
    clauses: ['SCP-03 (a)'],
  },
  {
    name: 'the summary answers the trigger and then comes again as a user message',
    profile: 'sol',
    file: 'history/model-history.ts',
    find: '        toolCalls: [],\n      },\n    ];\n  }',
    replace:
      "        toolCalls: [],\n      },\n      { id, seq, hidden: true, role: 'user', prompt: { parts: [{ type: 'text', text: `Summary of the conversation so far:\\n${checkpoint.summary}` }] } },\n    ];\n  }",
    clauses: ['SCP-03 (b)'],
  },
  {
    name: 'the tokens a compaction freed are not recorded',
    profile: 'sol',
    file: 'compaction/compactor.ts',
    find: 'summary, recentContext, cutSeq, tokensFreed },',
    replace: 'summary, recentContext, cutSeq },',
    clauses: ['SCP-07 (d)'],
  },
  {
    name: 'the tokens freed count what the checkpoint keeps',
    profile: 'sol',
    file: 'compaction/compactor.ts',
    find: "const tokensFreed = estimateTokens(lines.join('\\n')) - estimateTokens(summary + recentContext);",
    replace: 'const tokensFreed = estimateTokens(summary + recentContext);',
    clauses: ['SCP-07 (e)'],
  },
  {
    name: 'a compaction deletes the messages it folded',
    profile: 'sol',
    file: 'history/history-projection.ts',
    find: '      const { summary, recentContext, cutSeq } = event;',
    replace:
      '      const { summary, recentContext, cutSeq } = event;\n      db.prepare("DELETE FROM messages WHERE session_id = ? AND seq <= ? AND role != \'compaction\'").run(sessionId, cutSeq);',
    clauses: ['SCP-07 (c)'],
  },
  {
    name: 'the tokens a compaction freed count the messages an earlier one folded',
    kind: 'usage after compaction',
    profile: 'sol',
    file: 'compaction/compactor.ts',
    find: "  const tokensFreed = estimateTokens(lines.join('\\n')) - estimateTokens(summary + recentContext);",
    replace:
      "  const tokensFreed =\n    estimateTokens(messages.filter((m) => m.seq <= cutSeq).map(serialize).join('\\n')) - estimateTokens(summary + recentContext);",
    clauses: ['SCP-07 (e)'],
  },
  {
    // The continue message is injected once per session, never again after a later compaction.
    name: 'continue is injected only after the first automatic compaction of a session',
    kind: 'second occurrence',
    profile: 'sol',
    file: 'runner/drain.ts',
    find: '      deps.profile.continuesAfterCompaction() &&',
    replace: `      deps.profile.continuesAfterCompaction() &&
      !deps.history.messages(session.id).some((m) => m.role === 'user' && m.continuation === true) &&`,
    clauses: ['SCP-01 (c)'],
  },
  {
    // One ID for "the" continue message: the second compaction's replaces the first's.
    name: "the continue message of a later compaction reuses the first one's message ID",
    kind: 'second occurrence',
    profile: 'sol',
    file: 'runner/drain.ts',
    find: `        {
          type: 'continuation.injected',
          messageId: deps.ids.next('msg'),
          prompt: { parts: [{ type: 'text', text: CONTINUE_TEXT }] },
        },`,
    replace: `        {
          type: 'continuation.injected',
          messageId:
            deps.history.messages(session.id).find((m) => m.role === 'user' && m.continuation === true)?.id ??
            deps.ids.next('msg'),
          prompt: { parts: [{ type: 'text', text: CONTINUE_TEXT }] },
        },`,
    clauses: ['SCP-01 (c)'],
  },
  {
    name: 'tokens freed are recorded only when positive: a compaction that freed nothing records none',
    kind: 'edge value',
    // Only a requested compaction folds a conversation shorter than its summary.
    needs: 'manual-compaction',
    profile: 'sol',
    file: 'compaction/compactor.ts',
    find: `      cutSeq,
      tokensFreed,
    },`,
    replace: `      cutSeq,
      ...(tokensFreed > 0 ? { tokensFreed } : {}),
    },`,
    clauses: ['SCP-07 (d)'],
  },
  {
    name: 'the continue message is stored as a visible user message',
    profile: 'sol',
    file: 'history/history-projection.ts',
    find: '        { ...event.prompt, continuation: true, ...(event.ofMedia ? { continuationOfMedia: true } : {}) },\n        true,\n      );',
    replace:
      '        { ...event.prompt, continuation: true, ...(event.ofMedia ? { continuationOfMedia: true } : {}) },\n        false,\n      );',
    clauses: ['SCP-01 (b)'],
  },
  {
    name: 'the continue message is stored hidden but not marked as a continuation',
    kind: 'partial comparison',
    profile: 'sol',
    file: 'history/history-projection.ts',
    find: '        { ...event.prompt, continuation: true, ...(event.ofMedia ? { continuationOfMedia: true } : {}) },',
    replace: '        { ...event.prompt, ...(event.ofMedia ? { continuationOfMedia: true } : {}) },',
    clauses: ['SCP-01 (b)'],
  },
  {
    name: 'a compaction request asks for 32000 output tokens whatever the configured limit',
    profile: 'sol',
    file: 'compaction/compactor.ts',
    find: '    const maxOutputTokens = Math.min(deps.budget().outputAllowance, OUTPUT_TOKEN_MAX);',
    replace: '    const maxOutputTokens = OUTPUT_TOKEN_MAX;',
    clauses: ['SCP-02 (f)'],
  },
  {
    name: 'a compaction request goes out under the compaction prompt in place of the compaction system prompt',
    profile: 'sol',
    file: 'compaction/compactor.ts',
    find: '      baseline: [COMPACTION_SYSTEM_PROMPT],',
    replace: '      baseline: [COMPACTION_PROMPT],',
    clauses: ['SCP-02 (a)'],
  },
  {
    name: "a compaction without a model of its own uses the provider's configured model",
    kind: 'configuration precedence',
    profile: 'sol',
    file: 'compaction/compactor.ts',
    find: '      deps.budget().model ?? model,',
    replace: '      deps.budget().model ?? deps.provider.model,',
    clauses: ['SCP-02 (b)'],
  },
  {
    name: 'the compaction prompt goes out as a second system part, after no user message',
    profile: 'sol',
    file: 'compaction/compactor.ts',
    find: '      baseline: [COMPACTION_SYSTEM_PROMPT],\n      tools: [],\n      history: [...conversation, ask(COMPACTION_PROMPT)],',
    replace:
      '      baseline: [COMPACTION_SYSTEM_PROMPT, COMPACTION_PROMPT],\n      tools: [],\n      history: [...conversation],',
    clauses: ['SCP-02 (d)'],
  },
  {
    name: 'a compaction request carries no output limit',
    profile: 'sol',
    file: 'compaction/compactor.ts',
    find: '      history: [...conversation, ask(COMPACTION_PROMPT)],\n      maxOutputTokens,',
    replace:
      '      history: [...conversation, ask(COMPACTION_PROMPT)],\n      ...(maxOutputTokens > 0 ? {} : { maxOutputTokens }),',
    clauses: ['SCP-02 (f)'],
  },
  {
    name: 'the output limit of a compaction is capped at 32768, not 32000',
    kind: 'edge value',
    profile: 'sol',
    file: 'compaction/compactor.ts',
    find: '    const maxOutputTokens = Math.min(deps.budget().outputAllowance, OUTPUT_TOKEN_MAX);',
    replace: '    const maxOutputTokens = Math.min(deps.budget().outputAllowance, 32 * 1024);',
    clauses: ['SCP-02 (g)'],
  },
  {
    name: 'the summary is sent ahead of the whole history instead of in place of what it folded',
    profile: 'sol',
    file: 'history/model-history.ts',
    find: "      m.role !== 'compaction' && m.seq > checkpoint.cutSeq && !(m.role === 'system' && m.seq < checkpoint.seq),",
    replace: "      m.role !== 'compaction' && !(m.role === 'system' && m.seq < checkpoint.seq),",
    clauses: ['SCP-07 (b)'],
  },
  {
    name: 'the model history after a compaction starts one message before the cut',
    kind: 'edge value',
    profile: 'sol',
    file: 'history/model-history.ts',
    find: "      m.role !== 'compaction' && m.seq > checkpoint.cutSeq && !(m.role === 'system' && m.seq < checkpoint.seq),",
    replace:
      "      m.role !== 'compaction' && m.seq >= checkpoint.cutSeq && !(m.role === 'system' && m.seq < checkpoint.seq),",
    clauses: ['SCP-07 (b)'],
  },
  {
    // The rows stay, their content goes: the store keeps only the summary's worth.
    name: 'a compaction empties the text and output of the messages it folded',
    profile: 'sol',
    file: 'history/history-projection.ts',
    find: '      const { summary, recentContext, cutSeq } = event;',
    replace:
      "      const { summary, recentContext, cutSeq } = event;\n      db.prepare(\"UPDATE messages SET body = json_set(body, '$.text', '', '$.output', '') WHERE session_id = ? AND seq <= ? AND role IN ('assistant', 'tool')\").run(sessionId, cutSeq);",
    clauses: ['SCP-07 (c)'],
  },
];
