/** A request the fake provider received, in a dialect-neutral form, plus its raw body. */
export interface CapturedRequest {
  index: number;
  body: unknown;
  /** The model the request names. */
  model: string;
  /** The Baseline System Context as sent: its system parts, in order (empty when there is none). */
  baseline: string[];
  /** The chronological conversation after the baseline, mid-conversation system messages included. */
  messages: ModelVisibleMessage[];
  tools: string[];
  /** The kit's virtual time when the request arrived, and when the provider answered it. */
  arrivedAt?: string;
  answeredAt?: string;
  /** The requests whose responses had not ended when this one arrived (a runtime that did not wait for them). */
  openAtArrival?: number[];
}

export type DecodedRequest = Omit<
  CapturedRequest,
  'index' | 'body' | 'model' | 'arrivedAt' | 'answeredAt' | 'openAtArrival'
>;

export interface ModelVisibleMessage {
  role: string;
  text: string;
  toolCalls?: { id: string; name: string; input: string }[];
  toolCallId?: string;
  /** How many images (or other media) the message carries. */
  media?: number;
  /** The media type of each, in order (`image/png`, `application/pdf`), where the request says it. */
  mediaTypes?: string[];
  /** A call of a tool the provider executes itself, replayed with its ID and input (JSON text). */
  providerToolCall?: { id: string; name: string; input: string };
  /** The result of a tool the provider executed itself, replayed as the provider sent it (JSON text). */
  providerToolResult?: { toolUseId: string; content: string };
  /** Provider-native reasoning replayed with this assistant message. */
  reasoning?: { text: string; signature?: string };
}

/** What makes two requests the same to a provider: the model, the conversation and the tools offered. */
export function sameRequestKey(request: Omit<CapturedRequest, 'index' | 'body'>): string {
  return JSON.stringify([request.model, request.baseline, request.messages, request.tools]);
}

/** The media a message carries, as a neutral message's fields: none when the list is empty. */
export function mediaFields(mediaTypes: string[]): Pick<ModelVisibleMessage, 'media' | 'mediaTypes'> {
  return mediaTypes.length > 0 ? { media: mediaTypes.length, mediaTypes } : {};
}

/** The media type a data URL names (`data:image/png;base64,...`); `unknown` where it names none. */
export function dataUrlType(url: unknown): string {
  const match = typeof url === 'string' ? /^data:([^;,]+)[;,]/.exec(url) : null;
  return match?.[1] ?? 'unknown';
}
