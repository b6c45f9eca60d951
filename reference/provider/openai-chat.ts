import { createParser, type EventSourceMessage } from 'eventsource-parser';
import type { SessionMessage } from '../history/message.js';
import type { ToolDefinition } from '../tools/tool.js';
import type { FinishReason } from '../events/session-event.js';
import {
  ProviderRejected,
  StreamCut,
  type ProviderChunk,
  type ProviderConfig,
} from './provider-turn-stream.js';

/** The OpenAI Chat Completions dialect: request lowering and streamed response decoding. */

type ChatMessage =
  | { role: 'user'; content: string }
  | {
      role: 'assistant';
      content: string | null;
      tool_calls?: { id: string; type: 'function'; function: { name: string; arguments: string } }[];
    }
  | { role: 'tool'; tool_call_id: string; content: string };

export const INTERRUPTED_TOOL_OUTPUT = 'Tool execution interrupted';

export function toChatRequest(model: string, history: SessionMessage[], tools: ToolDefinition[]): object {
  return {
    model,
    stream: true,
    messages: history.flatMap(toChatMessages),
    tools: tools.map((tool) => ({
      type: 'function',
      function: { name: tool.name, description: tool.description, parameters: tool.parameters },
    })),
  };
}

function toChatMessages(message: SessionMessage): ChatMessage[] {
  switch (message.role) {
    case 'user':
      return [{ role: 'user', content: message.prompt.parts.map((part) => part.text).join('\n') }];
    case 'assistant': {
      if (message.text === '' && message.toolCalls.length === 0) return [];
      const toolCalls = message.toolCalls.map((call) => ({
        id: call.callId,
        type: 'function' as const,
        function: { name: call.name, arguments: call.input },
      }));
      return [{ role: 'assistant', content: message.text || null, ...(toolCalls.length ? { tool_calls: toolCalls } : {}) }];
    }
    case 'tool':
      return [{ role: 'tool', tool_call_id: message.callId, content: message.output ?? INTERRUPTED_TOOL_OUTPUT }];
  }
}

export async function* streamChat(
  config: ProviderConfig,
  request: object,
  signal: AbortSignal,
): AsyncGenerator<ProviderChunk> {
  const response = await fetch(`${config.baseUrl.replace(/\/$/, '')}/chat/completions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${config.apiKey}` },
    body: JSON.stringify(request),
    signal,
  });
  if (!response.ok || !response.body) throw new ProviderRejected(response.status, await response.text());

  const pending: EventSourceMessage[] = [];
  const parser = createParser({ onEvent: (message) => pending.push(message) });
  const decoder = new TextDecoder();
  let finished = false;
  let done = false;
  try {
    for await (const bytes of response.body) {
      parser.feed(decoder.decode(bytes as Uint8Array, { stream: true }));
      for (const message of pending.splice(0)) {
        if (message.data === '[DONE]') {
          done = true;
          continue;
        }
        for (const chunk of decodeChunk(message.data)) {
          if (chunk.type === 'finish') finished = true;
          yield chunk;
        }
      }
    }
  } catch (error) {
    if (signal.aborted) throw error;
    throw new StreamCut(error instanceof Error ? error.message : String(error));
  }
  if (!finished || !done) throw new StreamCut(finished ? 'no [DONE] frame' : 'no finish_reason');
}

interface ChatChunk {
  choices?: {
    delta?: {
      content?: string | null;
      tool_calls?: { index: number; id?: string; function?: { name?: string; arguments?: string } }[];
    };
    finish_reason?: string | null;
  }[];
}

function* decodeChunk(data: string): Generator<ProviderChunk> {
  const chunk = JSON.parse(data) as ChatChunk;
  for (const choice of chunk.choices ?? []) {
    const delta = choice.delta;
    if (delta?.content) yield { type: 'text', delta: delta.content };
    for (const call of delta?.tool_calls ?? []) {
      yield {
        type: 'tool-call',
        index: call.index,
        id: call.id,
        name: call.function?.name,
        argumentsDelta: call.function?.arguments,
      };
    }
    if (choice.finish_reason) yield { type: 'finish', reason: finishReason(choice.finish_reason) };
  }
}

function finishReason(reason: string): FinishReason {
  return reason === 'tool_calls' || reason === 'length' ? reason : 'stop';
}
