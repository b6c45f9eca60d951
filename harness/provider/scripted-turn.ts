/**
 * What the fake provider answers to one request, independent of any provider dialect. The wire
 * encoders turn these values into frames; scripts never mention the wire format.
 */
export type ScriptedTurn =
  | { kind: 'text'; text: string; chunks: number }
  | { kind: 'tool-calls'; calls: ScriptedToolCall[] }
  | { kind: 'error'; status: number; body: string }
  | { kind: 'recording'; name: string };

export interface ScriptedToolCall {
  id: string;
  name: string;
  input: Record<string, unknown>;
}

/** One scripted answer, with an optional condition on the request and an optional hold. */
export interface ScriptEntry {
  turn: ScriptedTurn;
  /** Answer only a request whose latest user message has this text. */
  forUserText?: string;
  /** The answer waits until the scenario releases this name. */
  hold?: string;
}

/** A response as it goes on the wire: a status, headers and the body split into frames. */
export interface WireResponse {
  status: number;
  headers: Record<string, string>;
  frames: string[];
}
