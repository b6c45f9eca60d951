import { ApiError } from './runner-adapter.js';

/** OpenCode's HTTP statuses the protocol has an error code for; any other error status is the adapter's. */
const STATUS_CODES: Record<number, ApiError['code']> = {
  400: 'invalid-input',
  404: 'not-found',
  409: 'conflict',
  422: 'invalid-input',
};

/**
 * One JSON request to an OpenCode server (`url` is its address with the path; `path` names it in
 * errors). An error status the protocol has a code for is OpenCode's refusal (ApiError).
 */
export async function serverRequest<T>(
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE',
  url: string,
  path: string,
  body?: unknown,
  headers: Record<string, string> = {},
): Promise<T> {
  return (await serverResponse<T>(method, url, path, body, headers)).body;
}

/** As `serverRequest`, with the headers OpenCode answered (a page's cursor rides on one). */
export async function serverResponse<T>(
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE',
  url: string,
  path: string,
  body?: unknown,
  headers: Record<string, string> = {},
): Promise<{ body: T; headers: Headers }> {
  const response = await fetch(url, {
    method,
    headers: { ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  if (!response.ok) {
    const said = `${method} ${path} answered ${response.status}: ${text.slice(0, 500)}`;
    const code = STATUS_CODES[response.status];
    throw code ? new ApiError(code, said) : new Error(said);
  }
  return { body: (text === '' ? {} : JSON.parse(text)) as T, headers: response.headers };
}
