import {
  errorResponse,
  splitIntoChunks,
  type EncodedTurn,
  type ScriptedToolCall,
  type ScriptedTurn,
  type ScriptedUsage,
  type WireResponse,
} from '../scripted-turn.js';
import { mediaFields, type DecodedRequest, type ModelVisibleMessage } from '../captured-request.js';
import type { WireRequest } from './dialect.js';

/**
 * The Gemini API wire dialect: `generateContent` answers one `GenerateContentResponse`,
 * `streamGenerateContent?alt=sse` several, each `data:` frame a response with the next parts of
 * the one candidate and the last with its finish reason and usage. There is no end marker, and no
 * finish reason for calls: a turn that calls tools finishes `STOP`. A function call comes whole.
 * Replayable reasoning is thought parts (`thought: true`); its signature is the `thoughtSignature`
 * of the first part after them.
 */

const SSE_HEADERS = { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' };

type Part = Record<string, unknown>;

export function encodeTurn(turn: EncodedTurn, model: string, responseId = 'kit', request?: WireRequest): WireResponse {
  if (turn.kind === 'error') return errorResponse(turn);
  const pieces = turn.kind === 'text' ? textPieces(turn) : turn.calls.map((call) => [functionCallPart(call)]);
  const response = (parts: Part[], last: boolean) => ({
    candidates: [{ content: { role: 'model', parts }, index: 0, ...(last ? { finishReason: 'STOP' } : {}) }],
    ...(last
      ? { usageMetadata: usageMetadata(turn.usage ?? { input: 0, cacheRead: 0, output: 0 }, thoughts(turn)) }
      : {}),
    modelVersion: model,
    responseId,
  });
  if (request?.path.endsWith(':generateContent'))
    return {
      status: 200,
      headers: { 'content-type': 'application/json' },
      frames: [JSON.stringify(response(merged(pieces), true))],
    };
  return {
    status: 200,
    headers: SSE_HEADERS,
    frames: pieces.map((parts, i) => `data: ${JSON.stringify(response(parts, i === pieces.length - 1))}\n\n`),
  };
}

/** The parts of a text turn, a list per frame: its thoughts, then its text, which carries their signature. */
function textPieces(turn: Extract<ScriptedTurn, { kind: 'text' }>): Part[][] {
  const { reasoning } = turn;
  const thought = reasoning
    ? splitIntoChunks(reasoning.text, reasoning.chunks ?? 1).map((text) => [{ text, thought: true }])
    : [];
  const said = splitIntoChunks(turn.text, turn.chunks).map((text, i): Part[] => [
    { text, ...(i === 0 && reasoning ? { thoughtSignature: reasoning.signature } : {}) },
  ]);
  return [...thought, ...said];
}

/** One response's parts: adjacent text parts of one kind are one part, as the unary API answers. */
function merged(pieces: Part[][]): Part[] {
  const parts: Part[] = [];
  for (const part of pieces.flat()) {
    const last = parts.at(-1);
    if (typeof part.text === 'string' && typeof last?.text === 'string' && last.thought === part.thought)
      last.text += part.text;
    else parts.push({ ...part });
  }
  return parts;
}

/** The API's arguments are an object: input text that does not decode to one has no form here. */
function functionCallPart(call: ScriptedToolCall): Part {
  let args: unknown = call.input;
  if (call.rawInput !== undefined) {
    try {
      args = JSON.parse(call.rawInput);
    } catch {
      args = undefined;
    }
    if (typeof args !== 'object' || args === null || Array.isArray(args))
      throw new Error(`the Gemini API cannot call ${call.name} with the input text ${JSON.stringify(call.rawInput)}`);
  }
  return { functionCall: { id: call.id, name: call.name, args } };
}

/** The thought tokens of a turn, counted like its other output. */
function thoughts(turn: Exclude<EncodedTurn, { kind: 'error' }>): number {
  return turn.kind === 'text' && turn.reasoning ? Math.ceil(turn.reasoning.text.length / 4) : 0;
}

/**
 * The prompt tokens include the cached ones; the output is the candidates' tokens and the
 * thoughts', each counted apart.
 */
function usageMetadata(usage: ScriptedUsage, thoughtTokens: number): object {
  const prompt = usage.input + usage.cacheRead;
  const thoughtsTokenCount = Math.min(thoughtTokens, usage.output);
  return {
    promptTokenCount: prompt,
    candidatesTokenCount: usage.output - thoughtsTokenCount,
    totalTokenCount: prompt + usage.output,
    ...(usage.cacheRead ? { cachedContentTokenCount: usage.cacheRead } : {}),
    ...(thoughtsTokenCount ? { thoughtsTokenCount } : {}),
  };
}

interface RequestPart {
  text?: string;
  thought?: boolean;
  thoughtSignature?: string;
  inlineData?: { mimeType?: string };
  fileData?: { mimeType?: string };
  functionCall?: { id?: string; name: string; args?: unknown };
  /** `parts`: the media of a multimodal function response. */
  functionResponse?: { id?: string; name: string; response?: Record<string, unknown>; parts?: RequestPart[] };
}

interface GenerateContentRequest {
  systemInstruction?: { parts?: RequestPart[] };
  contents?: { role?: string; parts?: RequestPart[] }[];
  tools?: { functionDeclarations?: { name?: string }[] }[];
}

/**
 * Reads a captured request body into the dialect-neutral view the scenarios assert on: the
 * `systemInstruction` is the baseline. A user content's parts are each one neutral message (a
 * function response a tool message); a model content's calls are one assistant message, and its
 * thoughts belong to its first message. A part under the other role than its own stands for nothing.
 */
export function decodeRequest(body: unknown): DecodedRequest {
  const request = body as GenerateContentRequest;
  if (!Array.isArray(request?.contents)) throw new Error('request has no contents array');
  return {
    baseline: (request.systemInstruction?.parts ?? []).flatMap((part) => (part.text === undefined ? [] : [part.text])),
    messages: request.contents.flatMap(({ role, parts = [] }) =>
      role === 'model' ? modelMessages(parts) : userMessages(parts),
    ),
    tools: (request.tools ?? []).flatMap((tool) => (tool.functionDeclarations ?? []).map((fn) => fn.name ?? '')),
  };
}

function userMessages(parts: RequestPart[]): ModelVisibleMessage[] {
  return parts.flatMap((part): ModelVisibleMessage[] => {
    if (part.functionResponse) {
      const { id, response, parts = [] } = part.functionResponse;
      const media = parts.flatMap((inner) => (inner.inlineData || inner.fileData ? [mediaTypeOf(inner)] : []));
      return [{ role: 'tool', text: resultText(response), toolCallId: id ?? '', ...mediaFields(media) }];
    }
    if (part.inlineData || part.fileData) return [{ role: 'user', text: '', ...mediaFields([mediaTypeOf(part)]) }];
    return part.text === undefined ? [] : [{ role: 'user', text: part.text }];
  });
}

function mediaTypeOf(part: RequestPart): string {
  return (part.inlineData ?? part.fileData)?.mimeType ?? 'unknown';
}

/** A result is an object; by the API's convention its text is under `output`, or `error` for a failure. */
function resultText(response: Record<string, unknown> | undefined): string {
  for (const key of ['output', 'error']) if (typeof response?.[key] === 'string') return response[key] as string;
  return JSON.stringify(response ?? {});
}

function modelMessages(parts: RequestPart[]): ModelVisibleMessage[] {
  const messages: ModelVisibleMessage[] = [];
  let calls: NonNullable<ModelVisibleMessage['toolCalls']> | undefined;
  for (const part of parts) {
    if (part.thought) continue;
    if (part.functionCall) {
      const { id, name, args } = part.functionCall;
      const call = { id: id ?? '', name, input: JSON.stringify(args ?? {}) };
      if (calls) calls.push(call);
      else {
        calls = [call];
        messages.push({ role: 'assistant', text: '', toolCalls: calls });
      }
    } else if (part.text !== undefined) {
      messages.push({ role: 'assistant', text: part.text });
      calls = undefined;
    }
  }
  const thought = parts.filter((part) => part.thought).map((part) => part.text ?? '');
  const signature = parts.find((part) => part.thoughtSignature)?.thoughtSignature;
  if (thought.length === 0 && signature === undefined) return messages;
  const reasoning = { text: thought.join(''), ...(signature ? { signature } : {}) };
  const [first = { role: 'assistant', text: '' }, ...rest] = messages;
  return [{ ...first, reasoning }, ...rest];
}
