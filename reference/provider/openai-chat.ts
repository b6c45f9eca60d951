import type { EventSourceMessage } from 'eventsource-parser';
import type { ModelMessage } from '../history/message.js';
import { INTERRUPTED_TOOL_OUTPUT } from '../history/message.js';
import { promptText, type FinishReason, type Prompt, type TokenUsage } from '../events/session-event.js';
import type { ToolAttachment } from '../tools/tool.js';
import type { ProviderDialect, StreamDecoder } from './dialect.js';
import type { ProviderChunk } from './provider-turn-stream.js';

/**
 * The OpenAI Chat Completions dialect. It has a native chronological `system` role, so a
 * Mid-Conversation System Message goes in place as a system message.
 */
export const openaiChat: ProviderDialect = {
  isContextOverflow: (status, body) => status === 400 && body.includes('context_length_exceeded'),
  encode(request, config) {
    return {
      path: 'chat/completions',
      headers: { authorization: `Bearer ${config.apiKey}` },
      body: {
        model: request.model,
        stream: true,
        ...(request.maxOutputTokens === undefined ? {} : { max_tokens: request.maxOutputTokens }),
        ...(request.options ? { prompt_cache_key: request.options.promptCacheKey } : {}),
        messages: withResultMedia(
          [
            ...request.baseline.map((content) => ({ role: 'system', content })),
            ...request.history.flatMap(toChatMessages),
          ],
          request.history,
        ),
        tools: request.tools.map((tool) => ({
          type: 'function',
          function: { name: tool.name, description: tool.description, parameters: tool.parameters },
        })),
      },
    };
  },
  decoder: () => new ChatDecoder(),
};

type ChatContentPart =
  | { type: 'text'; text: string }
  | { type: 'image_url'; image_url: { url: string } }
  | { type: 'file'; file: { filename: string; file_data: string } };

type ChatMessageContent = string | ChatContentPart[];

type ChatMessage =
  | { role: 'user'; content: ChatMessageContent }
  | { role: 'system'; content: string }
  | {
      role: 'assistant';
      content: string | null;
      tool_calls?: { id: string; type: 'function'; function: { name: string; arguments: string } }[];
    }
  | { role: 'tool'; tool_call_id: string; content: string };

function toChatMessages(message: ModelMessage): ChatMessage[] {
  switch (message.role) {
    case 'user':
      return [{ role: 'user', content: userContent(message.prompt) }];
    case 'system':
      return [{ role: 'system', content: message.text }];
    case 'assistant': {
      // This dialect has no replayable reasoning: only what the model said aloud goes back.
      if (message.text === '' && message.toolCalls.length === 0) return [];
      const toolCalls = message.toolCalls.map((call) => ({
        id: call.callId,
        type: 'function' as const,
        function: { name: call.name, arguments: call.input },
      }));
      return [
        { role: 'assistant', content: message.text || null, ...(toolCalls.length ? { tool_calls: toolCalls } : {}) },
      ];
    }
    case 'tool':
      return [{ role: 'tool', tool_call_id: message.callId, content: message.output ?? INTERRUPTED_TOOL_OUTPUT }];
  }
}

/** What introduces, in a user message, the images and files tool results returned. */
export const RESULT_MEDIA_TEXT = 'The images and files the tool results above returned:';

/**
 * A tool message holds text only in this dialect: the images and files of the results of one
 * assistant turn follow them in a user message, once the last result of the turn is given (no
 * other message may come between an assistant's calls and their results).
 */
function withResultMedia(messages: { role: string; tool_call_id?: string }[], history: ModelMessage[]): object[] {
  const media = new Map<string, ChatContentPart[]>();
  for (const message of history)
    if (message.role === 'tool' && message.attachments?.length)
      media.set(message.callId, message.attachments.map(mediaPart));
  if (media.size === 0) return messages;
  const out: object[] = [];
  let pending: ChatContentPart[] = [];
  messages.forEach((message, index) => {
    out.push(message);
    if (message.role === 'tool') pending.push(...(media.get(message.tool_call_id ?? '') ?? []));
    if (pending.length > 0 && messages[index + 1]?.role !== 'tool') {
      out.push({ role: 'user', content: [{ type: 'text', text: RESULT_MEDIA_TEXT }, ...pending] });
      pending = [];
    }
  });
  return out;
}

function mediaPart(attachment: ToolAttachment): ChatContentPart {
  const url = `data:${attachment.mediaType};base64,${attachment.data}`;
  return attachment.mediaType.startsWith('image/')
    ? { type: 'image_url', image_url: { url } }
    : { type: 'file', file: { filename: attachment.filename ?? 'file', file_data: url } };
}

/** Plain text, unless the prompt has media: then text, image and file parts, in order. */
function userContent(prompt: Prompt): ChatMessageContent {
  if (prompt.parts.every((part) => part.type === 'text')) return promptText(prompt);
  return prompt.parts.map((part) =>
    part.type === 'text' ? { type: 'text' as const, text: part.text } : mediaPart(part),
  );
}

interface ChatChunk {
  choices?: {
    delta?: {
      content?: string | null;
      tool_calls?: { index: number; id?: string; function?: { name?: string; arguments?: string } }[];
    };
    finish_reason?: string | null;
  }[];
  usage?: { prompt_tokens: number; completion_tokens: number; prompt_tokens_details?: { cached_tokens?: number } };
}

/** Complete once both a finish reason and the `[DONE]` frame have arrived. */
class ChatDecoder implements StreamDecoder {
  private finished = false;
  private done = false;

  get complete(): boolean {
    return this.finished && this.done;
  }

  accept(message: EventSourceMessage): ProviderChunk[] {
    if (message.data === '[DONE]') {
      this.done = true;
      return [];
    }
    const chunks: ProviderChunk[] = [];
    const parsed = JSON.parse(message.data) as ChatChunk;
    if (parsed.usage) chunks.push({ type: 'usage', usage: tokenUsage(parsed.usage) });
    for (const choice of parsed.choices ?? []) {
      const delta = choice.delta;
      if (delta?.content) chunks.push({ type: 'text', delta: delta.content });
      for (const call of delta?.tool_calls ?? []) {
        chunks.push({
          type: 'tool-call',
          index: call.index,
          id: call.id,
          name: call.function?.name,
          argumentsDelta: call.function?.arguments,
        });
      }
      if (choice.finish_reason) {
        this.finished = true;
        chunks.push({ type: 'finish', reason: finishReason(choice.finish_reason) });
      }
    }
    return chunks;
  }
}

/** The dialect's prompt tokens include the cached ones. */
function tokenUsage(usage: NonNullable<ChatChunk['usage']>): TokenUsage {
  const cacheRead = usage.prompt_tokens_details?.cached_tokens ?? 0;
  return { input: usage.prompt_tokens - cacheRead, cacheRead, output: usage.completion_tokens };
}

function finishReason(reason: string): FinishReason {
  return reason === 'tool_calls' || reason === 'length' ? reason : 'stop';
}
