import type { Edit, Mutant } from './mutant.js';

/** A compaction's end stored with its start, before the summary exists: a crash between leaves it loaded half-stored. */
const boundaryBeforeSummary: Edit = {
  file: 'compaction/compactor.ts',
  find: "  deps.log.append(sessionId, [{ type: 'compaction.started', compactionId }]);",
  replace:
    "  deps.log.append(sessionId, [{ type: 'compaction.started', compactionId }, { type: 'compaction.ended', compactionId, messageId: deps.ids.next('msg'), summary: '', recentContext: '', cutSeq }]);",
};

/**
 * Durable windows split into two writes, each caught by a real crash between them
 * (features/runner/Crash1.feature), so they run over stdio.
 */
export const crashes: Mutant[] = [
  {
    name: 'promotion appends the user message and consumes the inbox row in two writes',
    stdio: true,
    file: 'inbox/inbox-projection.ts',
    find: "          'UPDATE inbox SET promoted_seq = ? WHERE message_id = ? AND promoted_seq IS NULL RETURNING prompt',",
    replace: "          'SELECT prompt FROM inbox WHERE ? > 0 AND message_id = ? AND promoted_seq IS NULL',",
    also: [
      {
        file: 'inbox/inbox-projection.ts',
        find: "    case 'prompt.promoted': {",
        replace:
          "    case 'prompt.consumed':\n      db.prepare('UPDATE inbox SET promoted_seq = ? WHERE message_id = ?').run(seq, event.messageId);\n      return;\n    case 'prompt.promoted': {",
      },
      {
        file: 'inbox/inbox.ts',
        find: "      rows.map((row) => ({ type: 'prompt.promoted', messageId: row.message_id })),\n    );",
        replace:
          "      rows.map((row) => ({ type: 'prompt.promoted', messageId: row.message_id })),\n    );\n    this.log.append(sessionId, rows.map((row) => ({ type: 'prompt.consumed', messageId: row.message_id }) as never));",
      },
    ],
    clauses: ['INB-06 (a)'],
  },
  {
    name: 'the system message and the snapshot it admits are written separately',
    stdio: true,
    file: 'runner/context-boundary.ts',
    find: "      this.deps.log.append(this.session.id, [{ type: 'context.updated', messageId, text, keys, snapshot }]);",
    replace:
      "      this.deps.log.append(this.session.id, [{ type: 'context.updated', messageId, text, keys, snapshot: epoch.snapshot }]);\n      this.deps.log.append(this.session.id, [{ type: 'context.initialized', parts: epoch.parts, snapshot }]);",
    clauses: ['MCS-03 (c)'],
  },
  {
    name: 'raw tool output is stored before it is bounded',
    stdio: true,
    file: 'runner/turn-projection.ts',
    find: '        async (result) => void settle(await this.deps.tools.bound(result)),',
    replace:
      '        async (result) => {\n          settle(result);\n          settle(await this.deps.tools.bound(result));\n        },',
    clauses: ['TOO-08 (b)'],
  },
  {
    name: 'a compaction becomes the boundary when it starts, its summary filled in later',
    kind: 'atomicity',
    stdio: true,
    ...boundaryBeforeSummary,
    clauses: ['CMP-07 (b)'],
  },
  {
    name: 'a stored compaction of a session package is loaded before its summary is stored',
    profile: 'sol',
    stdio: true,
    ...boundaryBeforeSummary,
    clauses: ['SCP-07 (a)'],
  },
  {
    // The projection opens the boundary when the compaction starts; its end fills the summary in.
    name: 'the history opens the compaction boundary when the compaction starts',
    profile: 'sol',
    stdio: true,
    file: 'history/history-projection.ts',
    find: "    case 'compaction.ended': {\n      const { summary, recentContext, cutSeq } = event;",
    replace: `    case 'compaction.started':
      insertMessage(db, sessionId, seq, \`\${event.compactionId}-open\`, 'compaction', 'completed', { summary: '', recentContext: '', cutSeq: seq - 1 }, true);
      return;
    case 'compaction.ended': {
      db.prepare('DELETE FROM messages WHERE id = ?').run(\`\${event.compactionId}-open\`);
      const { summary, recentContext, cutSeq } = event;`,
    clauses: ['SCP-07 (a)'],
  },
  {
    name: 'a promoted prompt leaves the inbox only once the turn it opened settles',
    kind: 'atomicity',
    file: 'runner/drain.ts',
    find: '    const outcome = await runProviderTurn(deps, session, epoch.parts, signal, doomLoop);\n',
    replace: `    const outcome = await runProviderTurn(deps, session, epoch.parts, signal, doomLoop);
    const delivered = new Set(deps.history.messages(sessionId).map((m) => m.id));
    for (const row of outcome === 'settled' ? deps.inbox.rows(sessionId) : [])
      if (row.promotedSeq === null && delivered.has(row.messageId))
        deps.log.append(sessionId, [{ type: 'prompt.consumed', messageId: row.messageId } as never]);
`,
    also: [
      {
        file: 'inbox/inbox-projection.ts',
        find: "          'UPDATE inbox SET promoted_seq = ? WHERE message_id = ? AND promoted_seq IS NULL RETURNING prompt',",
        replace: "          'SELECT prompt FROM inbox WHERE ? > 0 AND message_id = ? AND promoted_seq IS NULL',",
      },
      {
        file: 'inbox/inbox-projection.ts',
        find: "      insertMessage(db, sessionId, seq, event.messageId, 'user', 'completed', JSON.parse(row.prompt));",
        replace:
          "      if (!db.prepare('SELECT 1 FROM messages WHERE id = ?').get(event.messageId))\n        insertMessage(db, sessionId, seq, event.messageId, 'user', 'completed', JSON.parse(row.prompt));",
      },
      {
        file: 'inbox/inbox-projection.ts',
        find: "    case 'prompt.promoted': {",
        replace:
          "    case 'prompt.consumed':\n      db.prepare('UPDATE inbox SET promoted_seq = ? WHERE message_id = ?').run(seq, event.messageId);\n      return;\n    case 'prompt.promoted': {",
      },
    ],
    clauses: ['INB-06 (a)'],
  },
  {
    name: 'the snapshot advances only once the turn its system message was admitted for settles',
    kind: 'atomicity',
    file: 'runner/context-boundary.ts',
    find: "      this.deps.log.append(this.session.id, [{ type: 'context.updated', messageId, text, keys, snapshot }]);",
    replace: `      this.deps.log.append(this.session.id, [{ type: 'context.updated', messageId, text, keys, snapshot: epoch.snapshot }]);
      (this as unknown as { commit: () => void }).commit = () =>
        this.deps.log.append(this.session.id, [{ type: 'context.initialized', parts: epoch.parts, snapshot }]);`,
    also: [
      {
        file: 'runner/drain.ts',
        find: '    const outcome = await runProviderTurn(deps, session, epoch.parts, signal, doomLoop);\n',
        replace:
          "    const outcome = await runProviderTurn(deps, session, epoch.parts, signal, doomLoop);\n    if (outcome === 'settled') (context as unknown as { commit?: () => void }).commit?.();\n",
      },
    ],
    clauses: ['MCS-03 (c)'],
  },
];
