import type { FakeProvider } from './fake-provider.js';

/** The base URL an in-process runtime is given: the kit answers it in process, nothing goes on the network. */
export const FAKE_PROVIDER_BASE_URL = 'http://provider.kit.test/v1';

/** The real `fetch`, while the kit's stands in for it. */
let original: typeof fetch | undefined;
let current: FakeProvider | undefined;

/**
 * Routes in-process `fetch` calls for the fake provider's URL to `provider` until the returned
 * function is called. The kit's `fetch` stays in place until `stopIntercepting`.
 */
export function interceptFor(provider: FakeProvider): () => void {
  if (!original) {
    original = globalThis.fetch;
    globalThis.fetch = routedFetch;
  }
  current = provider;
  return () => {
    if (current === provider) current = undefined;
  };
}

/** Restores the real `fetch`. */
export function stopIntercepting(): void {
  if (original) globalThis.fetch = original;
  original = undefined;
  current = undefined;
}

/**
 * The runtime's `fetch` while the kit intercepts. The common call (a URL string, a string body)
 * goes straight to the provider; anything else is read as a `Request` first. Any request but a
 * POST to the provider's path is a runtime reaching for the network: refused, as a network error.
 */
async function routedFetch(input: string | URL | Request, init?: RequestInit): Promise<Response> {
  const provider = current;
  const path = provider && `${FAKE_PROVIDER_BASE_URL}${provider.dialect.path}`;
  if (
    provider &&
    input === path &&
    init?.method?.toUpperCase() === 'POST' &&
    typeof init.body === 'string' &&
    !init.signal?.aborted
  ) {
    const text = init.body;
    return answered(provider.handle({ json: async () => JSON.parse(text) }, init.signal ?? undefined), init.signal);
  }
  const request = new Request(input, init);
  request.signal.throwIfAborted();
  if (!provider || request.method !== 'POST' || request.url !== path) {
    const allowed = path ? `the fake provider (POST ${path})` : 'no URL between scenarios';
    throw new TypeError('fetch failed', {
      cause: new Error(
        `conformance kit: a runtime in process reaches ${allowed}, not ${request.method} ${request.url}`,
      ),
    });
  }
  return answered(provider.handle(request, request.signal), request.signal);
}

/**
 * As `fetch` does, an abort before the answer rejects with the signal's reason; an answer that
 * comes after it is cancelled, so that the provider counts it as ended.
 */
function answered(response: Promise<Response>, signal: AbortSignal | null | undefined): Promise<Response> {
  if (!signal) return response;
  return new Promise((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    response.then(
      (answer) => {
        signal.removeEventListener('abort', onAbort);
        if (signal.aborted) void answer.body?.cancel(signal.reason).catch(() => {});
        else resolve(answer);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(error);
      },
    );
  });
}
