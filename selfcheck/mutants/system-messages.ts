import type { Mutant } from './mutant.js';

export const systemMessages: Mutant[] = [
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
    find: "      const messageId = this.deps.ids.next('msg');",
    replace:
      "      this.deps.log.append(this.session.id, [{ type: 'context.initialized', baseline: epoch.baseline, snapshot: result.snapshot }]);\n      const messageId = this.deps.ids.next('msg');",
    breaks: ['MCS-03'],
  },
  {
    name: 'the snapshot never advances, so changes are announced again',
    file: 'context/epoch-projection.ts',
    find: "        .prepare('UPDATE context_epochs SET snapshot = ? WHERE session_id = ?')",
    replace: "        .prepare('UPDATE context_epochs SET snapshot = snapshot WHERE ? IS NOT NULL AND session_id = ?')",
    breaks: ['MCS-04'],
  },
  {
    name: 'system messages are not hidden from the user transcript',
    profile: 'checkpoint',
    file: 'history/history-projection.ts',
    find: "insertMessage(db, sessionId, seq, event.messageId, 'system', 'completed', { text: event.text, keys: event.keys }, true);",
    replace:
      "insertMessage(db, sessionId, seq, event.messageId, 'system', 'completed', { text: event.text, keys: event.keys }, false);",
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
];
