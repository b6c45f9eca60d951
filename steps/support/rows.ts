import type { HistoryMessage } from '../../harness/driver/protocol.js';
import type { ModelVisibleMessage } from '../../harness/provider/captured-request.js';

/** One message as the feature tables write it: a role and a short content. */
export interface Row {
  role: string;
  content: string;
}

export function requestRow(message: ModelVisibleMessage): Row {
  const content = message.toolCalls?.length ? `calls ${message.toolCalls.map((call) => call.name).join(', ')}` : message.text;
  return { role: message.role, content };
}

export function historyRow(message: HistoryMessage): Row {
  switch (message.role) {
    case 'user':
    case 'system':
      return { role: message.role, content: message.text };
    case 'assistant':
      return {
        role: 'assistant',
        content: message.toolCalls.length ? `calls ${message.toolCalls.map((call) => call.name).join(', ')}` : message.text,
      };
    case 'tool':
      return { role: 'tool', content: message.output ?? '' };
  }
}

/** `*` in an expected row stands for any content. */
export function matchRows(actual: Row[], expected: Row[]): Row[] {
  return actual.map((row, i) => (expected[i]?.content === '*' ? { ...row, content: '*' } : row));
}
