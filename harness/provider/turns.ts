import type {
  ScriptedReasoning,
  ScriptedToolCall,
  ScriptedTurn,
  ScriptedUsage,
  ScriptedWebSearch,
} from './scripted-turn.js';

/** Small factories for the provider turns scenarios, session scripts and checks give the fake provider. */

export type TextTurn = Extract<ScriptedTurn, { kind: 'text' }>;
export type ToolCallsTurn = Extract<ScriptedTurn, { kind: 'tool-calls' }>;

/** What a turn may carry besides its text or calls. */
export interface TurnExtras {
  reasoning?: ScriptedReasoning;
  webSearch?: ScriptedWebSearch;
  usage?: ScriptedUsage | null;
}

/** A reply of `text` streamed in `chunks` pieces. */
export function textTurn(text: string, chunks: number, extras: TurnExtras = {}): TextTurn {
  return { kind: 'text', text, chunks, ...extras };
}

/** One turn calling every tool of `calls`, in order. */
export function toolCallsTurn(calls: ScriptedToolCall[], extras: Omit<TurnExtras, 'reasoning'> = {}): ToolCallsTurn {
  return { kind: 'tool-calls', calls, ...extras };
}

/** A call of the tool `name`; `id` is the call's ID, which results and checks name it by. */
export function toolCall(
  id: string,
  name: string,
  input: Record<string, unknown>,
  extras: Pick<ScriptedToolCall, 'rawInput' | 'inputChunks'> = {},
): ScriptedToolCall {
  return { id, name, input, ...extras };
}

/** An HTTP error answer with a body in the common `{ error: { message } }` form, and a `Retry-After` when given. */
export function errorTurn(status: number, retryAfter?: string): ScriptedTurn {
  const body = JSON.stringify({ error: { message: `status ${status}` } });
  return { kind: 'error', status, body, ...(retryAfter === undefined ? {} : { retryAfter }) };
}

/** No answer: the connection is reset once the request is read. */
export function resetTurn(): ScriptedTurn {
  return { kind: 'reset' };
}

/** A response recorded from a real provider, by its name in `recordings/`. */
export function recordingTurn(name: string): ScriptedTurn {
  return { kind: 'recording', name };
}
