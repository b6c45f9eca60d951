import { randomUUID } from 'node:crypto';
import type { EventSourceMessage } from 'eventsource-parser';
import type { AssistantMessage, ModelMessage } from '../history/message.js';
import { INTERRUPTED_TOOL_OUTPUT } from '../history/message.js';
import type { FinishReason, TokenUsage } from '../events/session-event.js';
import type { ProviderDialect, StreamDecoder } from './dialect.js';
import { StreamCut, type ProviderChunk } from './provider-turn-stream.js';
import { wrapSystemFallback } from './system-fallback.js';

/**
 * The Gemini API dialect, streamed (`streamGenerateContent?alt=sse`). Its version sits beside the
 * base URL's `/v1`. Contents alternate between the user and the model, and it has no chronological
 * system role, so a Mid-Conversation System Message is wrapped into the user side; a tool result is
 * a function response there.
 */
export const gemini: ProviderDialect = {
  isContextOverflow: (status, body) => status === 400 && /input token count.*exceeds the maximum/i.test(body),
  retryAfter,
  encode(request, config) {
    return {
      path: `../v1beta/models/${encodeURIComponent(request.model)}:streamGenerateContent?alt=sse`,
      headers: { 'x-goog-api-key': config.apiKey },
      body: {
        ...(request.baseline.length
          ? { systemInstruction: { parts: request.baseline.map((text) => ({ text })) } }
          : {}),
        contents: toContents(request.history, request.model),
        ...(request.tools.length
          ? {
              tools: [
                {
                  functionDeclarations: request.tools.map((tool) => ({
                    name: tool.name,
                    description: tool.description,
                    parametersJsonSchema: tool.parameters,
                  })),
                },
              ],
            }
          : {}),
        generationConfig: {
          ...(request.maxOutputTokens === undefined ? {} : { maxOutputTokens: request.maxOutputTokens }),
          thinkingConfig: { includeThoughts: true },
        },
      },
    };
  },
  decoder: () => new GeminiDecoder(),
};

type Part =
  | { text: string; thought?: true; thoughtSignature?: string }
  | { inlineData: { mimeType: string; data: string } }
  | { functionCall: { id: string; name: string; args: unknown }; thoughtSignature?: string }
  | { functionResponse: { id: string; name: string; response: { output: string } | { error: string } } };

interface Content {
  role: 'user' | 'model';
  parts: Part[];
}

/** Session History as alternating contents, in chronological order: adjacent parts of one side share one content. */
function toContents(history: ModelMessage[], model: string): Content[] {
  const contents: Content[] = [];
  for (const message of history) {
    const [role, parts] = contentOf(message, model);
    if (parts.length === 0) continue;
    const last = contents.at(-1);
    if (last?.role === role) last.parts.push(...parts);
    else contents.push({ role, parts });
  }
  return contents;
}

function contentOf(message: ModelMessage, model: string): [Content['role'], Part[]] {
  switch (message.role) {
    case 'user':
      return [
        'user',
        message.prompt.parts.map(
          (part): Part =>
            part.type === 'text' ? { text: part.text } : { inlineData: { mimeType: part.mediaType, data: part.data } },
        ),
      ];
    case 'system':
      return ['user', [{ text: wrapSystemFallback(message.text) }]];
    case 'tool': {
      const output = message.output ?? INTERRUPTED_TOOL_OUTPUT;
      const response = message.status === 'success' ? { output } : { error: output };
      // The images and files the tool returned follow its response, as parts of their own.
      const attachments = (message.attachments ?? []).map(
        (attachment): Part => ({ inlineData: { mimeType: attachment.mediaType, data: attachment.data } }),
      );
      return ['user', [{ functionResponse: { id: message.callId, name: message.name, response } }, ...attachments]];
    }
    case 'assistant':
      return ['model', modelParts(message, model)];
  }
}

/**
 * AGT-06: thoughts go back as thoughts, their signature on the first part after them, only to the
 * model that wrote them; any other model (and reasoning without a signature) reads them as text.
 */
function modelParts(message: AssistantMessage, model: string): Part[] {
  const { reasoning } = message;
  const signature = message.model === model ? reasoning?.signature : undefined;
  const said: Part[] = [
    ...(message.text ? [{ text: message.text }] : []),
    ...message.toolCalls.map((call) => ({
      // A call without arguments has no input text; the API wants an object.
      functionCall: {
        id: call.callId,
        name: call.name,
        args: call.input === '' ? {} : (JSON.parse(call.input) as unknown),
      },
    })),
  ];
  if (signature === undefined) return [...(reasoning?.text ? [{ text: reasoning.text }] : []), ...said];
  const thought: Part[] = reasoning?.text ? [{ text: reasoning.text, thought: true }] : [];
  // The signature goes on the first part after the thoughts, or on the thoughts where none follows.
  const signed = said.length ? thought.length : 0;
  return [...thought, ...said].map((part, i) => (i === signed ? { ...part, thoughtSignature: signature } : part));
}

/** How long a refusal asks to wait: the `RetryInfo` of its error details, in seconds. */
function retryAfter(body: string): string | null {
  try {
    const { error } = JSON.parse(body) as { error?: { details?: { '@type'?: string; retryDelay?: string }[] } };
    const delay = error?.details?.find((detail) => detail['@type']?.endsWith('google.rpc.RetryInfo'))?.retryDelay;
    return /^\d+(\.\d+)?s$/.test(delay ?? '') ? delay!.slice(0, -1) : null;
  } catch {
    return null;
  }
}

interface StreamedResponse {
  candidates?: {
    content?: {
      parts?: {
        text?: string;
        thought?: boolean;
        thoughtSignature?: string;
        functionCall?: { id?: string; name: string; args?: unknown };
      }[];
    };
    finishReason?: string;
  }[];
  usageMetadata?: {
    promptTokenCount?: number;
    candidatesTokenCount?: number;
    thoughtsTokenCount?: number;
    cachedContentTokenCount?: number;
  };
  error?: { code?: number; message?: string; status?: string };
}

/**
 * Complete once the candidate has a finish reason: the stream has no end marker. A function call
 * comes whole, so each is a call of its own; an `error` frame cuts the stream.
 */
class GeminiDecoder implements StreamDecoder {
  complete = false;
  private calls = 0;

  accept(message: EventSourceMessage): ProviderChunk[] {
    const response = JSON.parse(message.data) as StreamedResponse;
    if (response.error) throw new StreamCut(`${response.error.status ?? 'error'}: ${response.error.message ?? ''}`);
    const [candidate] = response.candidates ?? [];
    const chunks: ProviderChunk[] = [];
    for (const part of candidate?.content?.parts ?? []) {
      if (part.functionCall) {
        const { id, name, args } = part.functionCall;
        // The API names a call only where the model did; its result must still name it.
        const callId = id ?? `call_${randomUUID()}`;
        chunks.push({
          type: 'tool-call',
          index: this.calls++,
          id: callId,
          name,
          argumentsDelta: JSON.stringify(args ?? {}),
        });
      } else if (part.text) chunks.push({ type: part.thought ? 'reasoning' : 'text', delta: part.text });
      if (part.thoughtSignature) chunks.push({ type: 'reasoning-signature', signature: part.thoughtSignature });
    }
    if (response.usageMetadata) chunks.push({ type: 'usage', usage: tokenUsage(response.usageMetadata) });
    if (candidate?.finishReason) {
      this.complete = true;
      chunks.push({ type: 'finish', reason: finishReason(candidate.finishReason, this.calls > 0) });
    }
    return chunks;
  }
}

/** The prompt tokens include the cached ones; the output is the candidates' and the thoughts'. */
function tokenUsage(usage: NonNullable<StreamedResponse['usageMetadata']>): TokenUsage {
  const cacheRead = usage.cachedContentTokenCount ?? 0;
  return {
    input: (usage.promptTokenCount ?? 0) - cacheRead,
    cacheRead,
    output: (usage.candidatesTokenCount ?? 0) + (usage.thoughtsTokenCount ?? 0),
  };
}

/** The API finishes a turn that calls tools `STOP`: the calls tell it apart. */
function finishReason(reason: string, called: boolean): FinishReason {
  if (reason === 'MAX_TOKENS') return 'length';
  return called ? 'tool_calls' : 'stop';
}
