import type { AssistantMessage, ModelMessage, ToolMessage } from '../history/message.js';

/** Session History messages as the dialects' request builders receive them, numbered in order. */
let seq = 0;

export function user(text: string): ModelMessage {
  return { id: `u${++seq}`, seq, hidden: false, role: 'user', prompt: { parts: [{ type: 'text', text }] } };
}

export function system(text: string): ModelMessage {
  return { id: `s${++seq}`, seq, hidden: true, role: 'system', keys: [], text };
}

export function assistant(fields: Partial<AssistantMessage>): AssistantMessage {
  return {
    id: `a${++seq}`,
    seq,
    hidden: false,
    role: 'assistant',
    status: 'completed',
    model: 'model-a',
    text: '',
    toolCalls: [],
    ...fields,
  };
}

export function tool(callId: string, output: string, status: ToolMessage['status'] = 'success'): ToolMessage {
  return {
    id: `t${++seq}`,
    seq,
    hidden: false,
    role: 'tool',
    status,
    assistantMessageId: 'a',
    callId,
    name: 'echo',
    input: '{}',
    output,
  };
}
