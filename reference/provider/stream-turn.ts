import { createParser, type EventSourceMessage } from 'eventsource-parser';
import type { ProviderDialect } from './dialect.js';
import type { ProviderRequest } from './provider-request.js';
import { ProviderRejected, StreamCut, type ProviderChunk, type ProviderConfig } from './provider-turn-stream.js';

/**
 * Sends one provider request and yields its streamed response. An error status rejects before
 * anything streams; a stream that ends before the dialect's completion marker is cut.
 */
export async function* streamTurn(
  dialect: ProviderDialect,
  config: ProviderConfig,
  request: ProviderRequest,
  signal: AbortSignal,
): AsyncGenerator<ProviderChunk> {
  const { path, headers, body } = dialect.encode(request, config);
  const response = await fetch(new URL(path, `${config.baseUrl.replace(/\/$/, '')}/`), {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
    signal,
  });
  if (!response.ok || !response.body) {
    const text = await response.text();
    throw new ProviderRejected(
      response.status,
      text,
      response.headers.get('retry-after') ?? dialect.retryAfter?.(text) ?? null,
    );
  }

  const decoder = dialect.decoder();
  const pending: EventSourceMessage[] = [];
  const parser = createParser({ onEvent: (message) => pending.push(message) });
  const text = new TextDecoder();
  try {
    for await (const bytes of response.body) {
      parser.feed(text.decode(bytes as Uint8Array, { stream: true }));
      for (const message of pending.splice(0)) yield* decoder.accept(message);
    }
  } catch (error) {
    if (signal.aborted || error instanceof StreamCut || error instanceof ProviderRejected) throw error;
    throw new StreamCut(error instanceof Error ? error.message : String(error));
  }
  if (!decoder.complete) throw new StreamCut('the stream ended before the provider finished');
}
