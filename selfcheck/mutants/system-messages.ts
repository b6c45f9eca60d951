import type { Edit, Mutant } from './mutant.js';

/**
 * A failed provider attempt takes back the snapshot it admitted (to the last one before the newest
 * answer), with `also` done first: what a runtime that rolls its context back on failure writes.
 */
const takingBackAfterFailure = (also: string): string => `  projectHistory(db, sessionId, seq, event);
  if (event.type === 'session.failed') {
    const { answered } = db
      .prepare("SELECT COALESCE(MAX(seq), 0) AS answered FROM messages WHERE session_id = ? AND role = 'assistant' AND status = 'completed'")
      .get(sessionId) as { answered: number };
${also}    const kept = db
      .prepare("SELECT data FROM events WHERE session_id = ? AND type IN ('context.initialized', 'context.updated', 'context.replaced') AND seq < ? ORDER BY seq DESC LIMIT 1")
      .get(sessionId, answered) as { data: string } | undefined;
    if (kept) db.prepare('UPDATE context_epochs SET snapshot = ? WHERE session_id = ?').run(JSON.stringify(JSON.parse(kept.data).snapshot), sessionId);
  }`;

const DELETE_UNANSWERED_SYSTEM_MESSAGES = `    db.prepare("DELETE FROM messages WHERE session_id = ? AND role = 'system' AND seq > ?").run(sessionId, answered);
`;

/** Which sessions were told the date is kept in a memo of the process (the date mutants below). */
const DATE_TOLD_IN_MEMORY: Edit[] = [
  {
    file: 'runner/context-boundary.ts',
    find: "{ type: 'context.initialized', parts: systemParts(deps.profile, initialization.baseline), snapshot, provider },\n    ]);",
    replace:
      "{ type: 'context.initialized', parts: systemParts(deps.profile, initialization.baseline), snapshot, provider },\n    ]);\n    tellsDate(deps, session);",
  },
  {
    file: 'runner/context-boundary.ts',
    find: 'export class ContextBoundary {',
    replace: `const toldDate = new WeakMap<object, Set<string>>();
function tellsDate(deps: ContextBoundaryDeps, session: Session): boolean {
  const told = toldDate.get(deps.epochs) ?? new Set<string>();
  toldDate.set(deps.epochs, told);
  const before = told.has(session.id);
  told.add(session.id);
  return before;
}

export class ContextBoundary {`,
  },
];

/** Which sessions were told the date is a memo of the process, not of the durable snapshot: after a restart, the same day is told again. */
const DATE_IN_MEMORY: Mutant = {
  name: 'the date told to the model is remembered only in process memory',
  kind: 'state held only in memory',
  file: 'runner/context-boundary.ts',
  find: 'const result = await reconcile(this.deps.profile, this.sources, epoch.snapshot);',
  replace: `const { 'core/date': date, ...withoutDate } = epoch.snapshot;
  const told = tellsDate(this.deps, this.session) && date !== undefined;
  const result = await reconcile(this.deps.profile, this.sources, told ? epoch.snapshot : withoutDate);`,
  also: DATE_TOLD_IN_MEMORY,
  clauses: ['MCS-07 (b)'],
};

export const systemMessages: Mutant[] = [
  {
    name: 'context changes are admitted before the promoted input',
    kind: 'ordering in time',
    file: 'runner/drain.ts',
    find: '    const promoted = promoteAtBoundary(deps, sessionId);',
    replace: '    await context.admitChanges();\n    const promoted = promoteAtBoundary(deps, sessionId);',
    clauses: ['MCS-01 (a)', 'EPO-03 (b)'],
  },
  {
    name: 'the system message sent differs from the one stored',
    kind: 'facts only the protocol reports',
    file: 'provider/openai-chat.ts',
    find: "      return [{ role: 'system', content: message.text }];",
    replace: "      return [{ role: 'system', content: `${message.text}.` }];",
    clauses: ['MCS-02 (a)'],
  },
  {
    name: 'the snapshot advances in its own transaction before the message',
    file: 'runner/context-boundary.ts',
    find: "      const messageId = this.deps.ids.next('msg');",
    replace:
      "      this.deps.log.append(this.session.id, [{ type: 'context.initialized', baseline: epoch.baseline, snapshot: result.snapshot }]);\n      const messageId = this.deps.ids.next('msg');",
    clauses: ['MCS-03 (a)'],
  },
  {
    name: 'the snapshot never advances, so changes are announced again',
    file: 'context/epoch-projection.ts',
    find: "        .prepare('UPDATE context_epochs SET snapshot = ? WHERE session_id = ?')",
    replace: "        .prepare('UPDATE context_epochs SET snapshot = snapshot WHERE ? IS NOT NULL AND session_id = ?')",
    clauses: ['MCS-04 (a)'],
  },
  {
    name: 'system messages are not hidden from the user transcript',
    profile: 'checkpoint',
    file: 'history/history-projection.ts',
    find: "insertMessage(db, sessionId, seq, event.messageId, 'system', 'completed', { text: event.text, keys: event.keys }, true);",
    replace:
      "insertMessage(db, sessionId, seq, event.messageId, 'system', 'completed', { text: event.text, keys: event.keys }, false);",
    clauses: ['MCS-05 (c)'],
  },
  {
    name: 'system messages go as user turns although the provider has a system role',
    file: 'provider/openai-chat.ts',
    find: "      return [{ role: 'system', content: message.text }];",
    replace: "      return [{ role: 'user', content: message.text }];",
    clauses: ['MCS-06 (a)'],
  },
  {
    name: 'the date follows UTC, not the host calendar',
    file: 'context/location-contexts.ts',
    find: "dateSource(clock, () => hostEnv().TZ || 'UTC'),",
    replace: "dateSource(clock, () => 'UTC'),",
    clauses: ['MCS-07 (a)', 'EPO-10 (b)'],
  },
  {
    name: 'the fallback wrapper escapes ampersands last, so markup is escaped twice',
    file: 'provider/system-fallback.ts',
    find: "  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');",
    replace: "  return text.replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/&/g, '&amp;');",
    clauses: ['MCS-06 (b)'],
  },
  {
    name: 'system messages are sent in the system role at the head of the conversation',
    file: 'provider/openai-chat.ts',
    find: '          ...request.history.flatMap(toChatMessages),',
    replace:
      "          ...request.history.filter((m) => m.role === 'system').flatMap(toChatMessages),\n          ...request.history.filter((m) => m.role !== 'system').flatMap(toChatMessages),",
    clauses: ['MCS-06 (a)'],
  },
  {
    name: 'without a chronological system role, system messages join the system field',
    file: 'provider/anthropic-messages.ts',
    find: "        ...(request.baseline.length ? { system: request.baseline.map((text) => ({ type: 'text', text })) } : {}),",
    replace:
      "        ...(request.baseline.length ? { system: [...request.baseline, ...request.history.flatMap((m) => (m.role === 'system' ? [m.text] : []))].map((text) => ({ type: 'text', text })) } : {}),",
    also: [
      {
        file: 'provider/anthropic-messages.ts',
        find: '        messages: toTurns(request.history, request.model),',
        replace: "        messages: toTurns(request.history.filter((m) => m.role !== 'system'), request.model),",
      },
    ],
    clauses: ['MCS-06 (b)'],
  },
  {
    name: 'the system message is sent trimmed',
    file: 'provider/openai-chat.ts',
    find: "      return [{ role: 'system', content: message.text }];",
    replace: "      return [{ role: 'system', content: message.text.trim() }];",
    clauses: ['MCS-02 (a)'],
  },
  {
    name: 'a failed provider attempt rolls back the system messages admitted for it',
    file: 'store/projector.ts',
    find: '  projectHistory(db, sessionId, seq, event);',
    replace: `  projectHistory(db, sessionId, seq, event);
  if (event.type === 'session.failed')
    db.prepare("DELETE FROM messages WHERE session_id = ? AND role = 'system' AND seq > (SELECT COALESCE(MAX(seq), 0) FROM messages WHERE session_id = ? AND role = 'assistant' AND status = 'completed')").run(sessionId, sessionId);`,
    clauses: ['MCS-04 (a)'],
  },
  {
    name: 'system messages hidden from the transcript are hidden from the model too',
    file: 'history/model-history.ts',
    find: '  return activeHistory(messages, form).map((m) =>',
    replace: "  return activeHistory(messages, form).filter((m) => !(m.role === 'system' && m.hidden)).map((m) =>",
    clauses: ['MCS-05 (a)'],
  },
  {
    name: 'a wrapped system message is put ahead of the user turn it shares',
    file: 'provider/anthropic-messages.ts',
    find: '    if (last?.role === role) last.content.push(...blocks);',
    replace:
      "    if (last?.role === role && message.role === 'system') last.content.unshift(...blocks);\n    else if (last?.role === role) last.content.push(...blocks);",
    clauses: ['MCS-01 (a)'],
  },
  {
    name: "a boundary's system message is put ahead of the tool results settled before it",
    kind: 'ordering in time',
    file: 'provider/openai-chat.ts',
    find: '          ...request.history.flatMap(toChatMessages),',
    replace:
      "          ...request.history.flatMap(toChatMessages).reduce<{ role: string }[]>((out, m) => (m.role === 'system' ? out.splice(out.findLastIndex((o) => o.role !== 'tool') + 1, 0, m) : out.push(m), out), []),",
    clauses: ['MCS-01 (b)'],
  },
  {
    name: "the host's time zone offset is applied with the wrong sign",
    file: 'context/sources/date.ts',
    find: '    formatIn(timeZone)\n      .formatToParts(now)',
    replace:
      "    formatIn('UTC')\n      .formatToParts(new Date(now.getTime() - (Date.parse(now.toLocaleString('en-US', { timeZone })) - Date.parse(now.toLocaleString('en-US', { timeZone: 'UTC' })))))",
    clauses: ['MCS-07 (a)'],
  },
  {
    name: 'a failed provider attempt takes back its system message and the snapshot it admitted',
    file: 'store/projector.ts',
    find: '  projectHistory(db, sessionId, seq, event);',
    replace: takingBackAfterFailure(DELETE_UNANSWERED_SYSTEM_MESSAGES),
    clauses: ['MCS-04 (a)'],
  },
  {
    name: 'the UTC date names the next weekday',
    file: 'context/sources/date.ts',
    find: '${WEEKDAYS[now.getUTCDay()]}',
    replace: '${WEEKDAYS[(now.getUTCDay() + 1) % 7]}',
    clauses: ['EPO-04 (d)', 'EPO-10 (b)'],
  },
  {
    name: 'daylight saving time is applied all year round',
    file: 'context/sources/date.ts',
    find: '      .formatToParts(now)',
    replace: '      .formatToParts(new Date(now.getTime() + 3_600_000))',
    clauses: ['MCS-07 (c)'],
  },
  {
    name: 'the date is compared as its UTC day, though told in the host calendar',
    kind: 'partial comparison',
    file: 'context/sources/date.ts',
    find: '    encode: (value) => value,',
    replace: "    encode: () => localDate(clock.now(), 'UTC'),",
    clauses: ['MCS-07 (c)'],
  },
  {
    name: 'steers are picked up once more as the request is assembled, after the system message',
    file: 'runner/drain.ts',
    find: '    const epoch = await context.admitChanges();',
    replace: '    const epoch = await context.admitChanges();\n    deps.inbox.promoteSteers(sessionId);',
    // The steer lands after the system message: MCS-01's order check fails first, and INB-07's then goes unjudged.
    clauses: ['MCS-01 (c)'],
  },
  {
    name: 'a system message is put ahead of the tool results just before it',
    kind: 'ordering in time',
    file: 'runner/provider-turn.ts',
    find: '    history: modelHistory(deps.history.messages(session.id), deps.profile.checkpointForm(), deps.prunedMessage?.()),\n    tools:',
    replace:
      "    history: modelHistory(deps.history.messages(session.id), deps.profile.checkpointForm(), deps.prunedMessage?.()).reduce<ReturnType<typeof modelHistory>>((out, m) => (m.role === 'system' ? out.splice(out.findLastIndex((o) => o.role !== 'tool') + 1, 0, m) : out.push(m), out), []),\n    tools:",
    clauses: ['MCS-01 (b)'],
  },
  DATE_IN_MEMORY,
  {
    // As the one above, and the change is told before the promoted input: a check that looks only
    // after the input does not see the same day told again.
    ...DATE_IN_MEMORY,
    name: 'the date is told again after a restart, ahead of the input',
    also: [
      {
        file: 'runner/drain.ts',
        find: '    const promoted = promoteAtBoundary(deps, sessionId);',
        replace: '    await context.admitChanges();\n    const promoted = promoteAtBoundary(deps, sessionId);',
      },
      ...DATE_TOLD_IN_MEMORY,
    ],
  },
  {
    // Each network chunk is decoded on its own: a character whose bytes arrive in two chunks is lost.
    // The fake provider cuts such a character between two chunks, which only a runtime in the kit's
    // process is sure to receive apart: over a socket the two may arrive as one.
    name: 'the response stream is decoded chunk by chunk',
    file: 'provider/stream-turn.ts',
    find: 'parser.feed(text.decode(bytes as Uint8Array, { stream: true }));',
    replace: 'parser.feed(new TextDecoder().decode(bytes as Uint8Array));',
    clauses: ['CMP-06 (b)'],
  },
  {
    name: 'each changed source is announced in a system message of its own',
    // The checkpoint scenario names the keys each system message announces.
    profile: 'checkpoint',
    file: 'context/system-context.ts',
    find: '    keys: parts.map((p) => p.key),\n    snapshot: next,',
    replace: '    keys: parts.map((p) => p.key),\n    snapshot: next,\n    parts,',
    also: [
      {
        file: 'runner/context-boundary.ts',
        find: "      this.deps.log.append(this.session.id, [{ type: 'context.updated', messageId, text, keys, snapshot }]);",
        replace: `      const { parts } = result as unknown as { parts: { key: string; text: string }[] };
      this.deps.log.append(
        this.session.id,
        parts.map((part, i) => ({
          type: 'context.updated' as const,
          messageId: i === 0 ? messageId : this.deps.ids.next('msg'),
          text: part.text,
          keys: [part.key],
          snapshot,
        })),
      );
      void text;
      void keys;`,
      },
    ],
    clauses: ['MCS-02 (b)'],
  },
  {
    // The epoch read at a boundary is served from memory, advanced as the change is admitted: a write that fails leaves it advanced.
    name: 'the snapshot is advanced in memory before the system message is written',
    needs: 'fault-injection',
    file: 'context/epoch-store.ts',
    find: '      snapshot: JSON.parse(row.snapshot),',
    replace: '      snapshot: this.admitted.get(sessionId) ?? JSON.parse(row.snapshot),',
    also: [
      {
        file: 'context/epoch-store.ts',
        find: '  find(sessionId: string): ContextEpoch | undefined {',
        replace:
          '  readonly admitted = new Map<string, ContextSnapshot>();\n\n  find(sessionId: string): ContextEpoch | undefined {',
      },
      {
        file: 'runner/context-boundary.ts',
        find: '      const { text, keys, snapshot } = result;',
        replace:
          '      const { text, keys, snapshot } = result;\n      (this.deps.epochs as unknown as { admitted: Map<string, ContextSnapshot> }).admitted.set(this.session.id, snapshot);',
      },
    ],
    clauses: ['MCS-03 (b)'],
  },
  {
    name: 'the snapshot is written after the system message, even when the message fails',
    kind: 'atomicity',
    needs: 'fault-injection',
    file: 'runner/context-boundary.ts',
    find: "      this.deps.log.append(this.session.id, [{ type: 'context.updated', messageId, text, keys, snapshot }]);",
    replace:
      "      try {\n        this.deps.log.append(this.session.id, [{ type: 'context.updated', messageId, text, keys, snapshot: epoch.snapshot }]);\n      } finally {\n        this.deps.log.append(this.session.id, [{ type: 'context.replaced', parts: epoch.parts, snapshot, ...(epoch.provider ? { provider: epoch.provider } : {}) }]);\n      }",
    clauses: ['MCS-03 (a)'],
  },
  {
    name: 'an update is marked as told before its system message is written',
    kind: 'state held only in memory',
    needs: 'fault-injection',
    file: 'runner/context-boundary.ts',
    find: "    if (result.kind === 'updated') {\n      const messageId = this.deps.ids.next('msg');",
    replace:
      "    const tellingKey = result.kind === 'updated' ? `${this.session.id}\\0${result.text}` : '';\n    if (result.kind === 'updated' && !toldTexts.has(tellingKey)) {\n      toldTexts.add(tellingKey);\n      const messageId = this.deps.ids.next('msg');",
    also: [
      {
        file: 'runner/context-boundary.ts',
        find: '/** Why the context stops a drain before anything is sent. */',
        replace: 'const toldTexts = new Set<string>();\n/** Why the context stops a drain before anything is sent. */',
      },
    ],
    clauses: ['MCS-03 (b)'],
  },
  {
    // One pending system message per attempt: a boundary before any reply replaces it with the current rendering.
    name: 'a system message no reply has followed is replaced by the one of the next boundary',
    file: 'store/projector.ts',
    find: '  projectHistory(db, sessionId, seq, event);',
    replace: `  if (event.type === 'context.updated')
    db.prepare(
      "DELETE FROM messages WHERE session_id = ? AND role = 'system' AND seq > (SELECT COALESCE(MAX(seq), 0) FROM messages WHERE session_id = ? AND role <> 'system')",
    ).run(sessionId, sessionId);
  projectHistory(db, sessionId, seq, event);`,
    clauses: ['MCS-04 (b)'],
  },
  {
    name: 'a failed provider attempt takes back the snapshot it admitted, so the retry announces the change again',
    file: 'store/projector.ts',
    find: '  projectHistory(db, sessionId, seq, event);',
    replace: takingBackAfterFailure(''),
    clauses: ['MCS-04 (c)'],
  },
  {
    name: 'a system message no reply has followed is rewritten in place with the next rendering',
    file: 'store/projector.ts',
    find: '  projectHistory(db, sessionId, seq, event);',
    replace: `  if (event.type === 'context.updated') {
    const pending = db
      .prepare("SELECT id, body FROM messages WHERE session_id = ? AND role = 'system' AND seq > (SELECT COALESCE(MAX(seq), 0) FROM messages WHERE session_id = ? AND role <> 'system') ORDER BY seq DESC LIMIT 1")
      .get(sessionId, sessionId) as { id: string; body: string } | undefined;
    if (pending) {
      db.prepare('UPDATE messages SET body = ? WHERE id = ?').run(JSON.stringify({ ...JSON.parse(pending.body), text: event.text, keys: event.keys }), pending.id);
      projectEpoch(db, sessionId, event);
      return;
    }
  }
  projectHistory(db, sessionId, seq, event);`,
    clauses: ['MCS-04 (b)'],
  },
  {
    name: 'the retry admits the unanswered system messages once more',
    kind: 'second occurrence',
    file: 'runner/context-boundary.ts',
    find: "    if (result.kind === 'updated') {\n      const messageId = this.deps.ids.next('msg');",
    replace:
      "    if (result.kind === 'unchanged') {\n      const history = (this.deps as unknown as { history: { messages(id: string): { role: string; status?: string; text?: string; keys?: string[] }[] } }).history.messages(this.session.id);\n      const answered = history.findLastIndex((m) => m.role === 'assistant' && m.status === 'completed');\n      for (const m of history.slice(answered + 1).filter((m) => m.role === 'system'))\n        this.deps.log.append(this.session.id, [{ type: 'context.updated', messageId: this.deps.ids.next('msg'), text: m.text!, keys: m.keys ?? [], snapshot: epoch.snapshot }]);\n    }\n    if (result.kind === 'updated') {\n      const messageId = this.deps.ids.next('msg');",
    clauses: ['MCS-04 (c)'],
  },
  {
    name: 'a system message is sent only with the turn it was admitted for',
    file: 'history/model-history.ts',
    find: '  return activeHistory(messages, form).map((m) =>',
    replace:
      "  return activeHistory(messages, form).filter((m, i, all) => m.role !== 'system' || !all.slice(i + 1).some((o) => o.role === 'assistant' && o.status === 'completed')).map((m) =>",
    clauses: ['MCS-05 (b)'],
  },
  {
    name: 'system messages are read back as shown in the user transcript',
    profile: 'checkpoint',
    file: 'history/history-store.ts',
    find: '  const base = { id: row.id, seq: row.seq, hidden: row.hidden === 1 };',
    replace: "  const base = { id: row.id, seq: row.seq, hidden: row.hidden === 1 && row.role !== 'system' };",
    clauses: ['MCS-05 (c)'],
  },
];
