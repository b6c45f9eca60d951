import { existsSync } from 'node:fs';
import { isAbsolute, join } from 'node:path';
import { KitInputError } from '../input-error.js';
import { displayPath, readInputText } from '../input/input-file.js';
import type { WireResponse } from './scripted-turn.js';

/**
 * Provider recordings are wire-level responses stored under `recordings/<dialect>/` (or wherever
 * an absolute name points):
 * `<name>.sse` is a streamed 200 body, frame by frame (a cut stream simply ends early);
 * `<name>.http` is a complete non-streamed response: status line, headers, blank line, body.
 */
export function loadRecording(root: string, dialect: string, name: string): WireResponse {
  // A name is one of the kit's recordings of the dialect; an absolute path is the user's own file.
  const base = isAbsolute(name) ? name : join(root, dialect, name);
  if (existsSync(`${base}.sse`)) return parseSse(displayPath(`${base}.sse`), readInputText(`${base}.sse`));
  if (existsSync(`${base}.http`)) return parseHttp(displayPath(`${base}.http`), readInputText(`${base}.http`));
  throw new KitInputError(displayPath(base), `no recording named "${name}" (looked for .sse and .http)`);
}

const FIELD = /^(data|event|id|retry)(:|$)/;

/**
 * Far more frames than any recorded turn streams (the kit's own have under 20): each is played to
 * the runtime as a chunk of its own, and many more would keep a replay going for minutes.
 */
const MAX_FRAMES = 10_000;

export function parseSse(file: string, text: string): WireResponse {
  const frames: string[] = [];
  let line = 1;
  for (const raw of text.replace(/\r\n/g, '\n').split(/\n\n/)) {
    const startLine = line;
    line += raw.split('\n').length + 1;
    if (raw.trim() === '') continue;
    const where = `${file} frame ${frames.length + 1} (line ${startLine})`;
    for (const field of raw.split('\n')) {
      if (field.startsWith(':')) continue;
      if (!FIELD.test(field)) throw new KitInputError(where, `"${field.slice(0, 60)}" is not an SSE field`);
      if (field.startsWith('data:')) checkData(where, field.slice(5).trim());
    }
    frames.push(`${raw}\n\n`);
    if (frames.length > MAX_FRAMES)
      throw new KitInputError(file, `the recording holds more than ${MAX_FRAMES} frames, more than a turn streams`);
  }
  if (frames.length === 0) throw new KitInputError(file, 'the recording holds no frames');
  // Comments alone would play as a stream the provider ended before saying anything: the runtime's failure, not the file's.
  if (frames.every((frame) => frame.split('\n').every((field) => field === '' || field.startsWith(':'))))
    throw new KitInputError(file, 'the recording holds only comments, no event');
  return { status: 200, headers: { 'content-type': 'text/event-stream' }, frames };
}

function checkData(where: string, data: string): void {
  if (data === '[DONE]') return;
  try {
    JSON.parse(data);
  } catch (error) {
    throw new KitInputError(where, `data is not JSON (${(error as Error).message})`);
  }
}

export function parseHttp(file: string, text: string): WireResponse {
  const [head, ...rest] = text.replace(/\r\n/g, '\n').split('\n\n');
  const [statusLine, ...headerLines] = (head ?? '').split('\n');
  const status = /^HTTP\/[\d.]+ (\d{3})\b/.exec(statusLine ?? '');
  if (!status)
    throw new KitInputError(`${file} line 1`, `expected a status line like "HTTP/1.1 429 Too Many Requests"`);
  // The fake provider answers through an HTTP server, which sends no other status.
  const code = Number(status[1]);
  if (code < 200 || code > 599)
    throw new KitInputError(`${file} line 1`, `status ${code} is not one a provider answers with (200 to 599)`);
  const headers: Record<string, string> = {};
  headerLines.forEach((header, i) => {
    const colon = header.indexOf(':');
    if (colon <= 0) throw new KitInputError(`${file} line ${i + 2}`, `"${header}" is not a header`);
    headers[header.slice(0, colon).trim().toLowerCase()] = header.slice(colon + 1).trim();
  });
  return { status: code, headers, frames: [rest.join('\n\n')] };
}
