import { FetchInterceptor } from '@mswjs/interceptors/fetch';
import type { FakeProvider } from './fake-provider.js';
import { ConnectionReset } from './scripted-turn.js';
import { routeOf } from './wire/dialect.js';

/** The base URL an in-process runtime is given: the kit answers it in process, nothing goes on the network. */
export const FAKE_PROVIDER_BASE_URL = 'http://provider.kit.test/v1';
const ORIGIN = new URL(FAKE_PROVIDER_BASE_URL).origin;

/**
 * msw's request interception layer, without msw's handler pipeline: that pipeline (matching,
 * lifecycle events, request clones) cost about five times the interception itself per request,
 * which a long replay pays on every turn.
 */
let interceptor: FetchInterceptor | undefined;
let current: FakeProvider | undefined;

/** Routes in-process `fetch` calls for the fake provider's URL to `provider` until the returned function is called. */
export function interceptFor(provider: FakeProvider): () => void {
  interceptor ??= listening();
  current = provider;
  return () => {
    if (current === provider) current = undefined;
  };
}

/** Restores the real `fetch`. */
export function stopIntercepting(): void {
  interceptor?.dispose();
  interceptor = undefined;
  current = undefined;
}

function listening(): FetchInterceptor {
  const created = new FetchInterceptor();
  created.apply();
  created.on('request', async ({ request, controller }) => {
    const provider = current;
    const url = new URL(request.url);
    // Any other request is a runtime reaching for the network: a network error, never a pass-through.
    if (!provider || request.method !== 'POST' || url.origin !== ORIGIN || !routeOf(provider.dialect, url.pathname)) {
      const allowed = provider
        ? `the fake provider (POST ${provider.dialect.paths.map((path) => `${ORIGIN}${path}`).join(' or ')})`
        : 'no URL between scenarios';
      controller.errorWith(
        new TypeError('fetch failed', {
          cause: new Error(
            `conformance kit: a runtime in process reaches ${allowed}, not ${request.method} ${request.url}`,
          ),
        }),
      );
      return;
    }
    let response: Response;
    try {
      response = await provider.handle(request, request.signal);
    } catch (error) {
      if (!(error instanceof ConnectionReset)) throw error;
      // What Node's fetch throws when the peer resets the connection.
      const reset = Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET', syscall: 'read' });
      controller.errorWith(new TypeError('fetch failed', { cause: reset }));
      return;
    }
    controller.respondWith(response);
  });
  return created;
}
