import { setupServer } from 'msw/node';
import { http } from 'msw';
import type { FakeProvider } from './fake-provider.js';

/** The base URL an in-process runtime is given; msw answers it, nothing goes on the network. */
export const FAKE_PROVIDER_BASE_URL = 'http://provider.kit.test/v1';

let server: ReturnType<typeof setupServer> | undefined;

/** Routes in-process `fetch` calls for the fake provider's URL to `provider` until `stop`. */
export function interceptFor(provider: FakeProvider): () => void {
  server ??= listening();
  server.use(http.post(`${FAKE_PROVIDER_BASE_URL}${provider.dialect.path}`, ({ request }) => provider.handle(request)));
  return () => server?.resetHandlers();
}

/** Restores the real `fetch`. */
export function stopIntercepting(): void {
  server?.close();
  server = undefined;
}

function listening(): ReturnType<typeof setupServer> {
  const created = setupServer();
  // Any request to anywhere else is a runtime reaching for the network: an error, never a pass-through.
  created.listen({ onUnhandledRequest: 'error' });
  return created;
}
