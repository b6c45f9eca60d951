import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { FakeProvider } from './fake-provider.js';
import { ConnectionReset } from './scripted-turn.js';
import { routeOf } from './wire/dialect.js';

/**
 * Serves the fake provider over HTTP on 127.0.0.1, for runtimes in other processes. Requests go
 * to whichever provider `current()` returns: one server outlives the scenarios it serves.
 */
export async function serveOnLoopback(
  current: () => FakeProvider | undefined,
): Promise<{ baseUrl: string; close(): Promise<void> }> {
  const server = createServer((req, res) => {
    answer(current(), req, res).catch((error: unknown) => {
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({ error: { message: `conformance kit: ${error instanceof Error ? error.message : error}` } }),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

async function answer(provider: FakeProvider | undefined, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const path = new URL(req.url ?? '/', 'http://127.0.0.1').pathname;
  if (!provider || req.method !== 'POST' || !routeOf(provider.dialect, path)) {
    res
      .writeHead(404, { 'content-type': 'application/json' })
      .end(JSON.stringify({ error: { message: `no fake provider route ${req.method} ${path}` } }));
    return;
  }
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const request = new Request(`http://127.0.0.1${req.url}`, {
    method: 'POST',
    headers: req.headers as Record<string, string>,
    body: Buffer.concat(chunks),
  });
  let response: Response;
  try {
    response = await provider.handle(request);
  } catch (error) {
    if (!(error instanceof ConnectionReset)) throw error;
    // A TCP reset: the runtime's HTTP client reports ECONNRESET, as a real connection reset gives.
    req.socket.resetAndDestroy();
    return;
  }
  res.writeHead(response.status, Object.fromEntries(response.headers));
  const reader = response.body?.getReader();
  res.on('close', () => void reader?.cancel().catch(() => {}));
  for (let next = await reader?.read(); next && !next.done; next = await reader!.read()) res.write(next.value);
  res.end();
}
