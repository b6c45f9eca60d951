/** A request the fake provider received, in a dialect-neutral form, plus its raw body. */
export interface CapturedRequest {
  index: number;
  body: unknown;
  messages: ModelVisibleMessage[];
  tools: string[];
}

export interface ModelVisibleMessage {
  role: string;
  text: string;
  toolCalls?: { id: string; name: string; input: string }[];
  toolCallId?: string;
}
