import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { ServerRuntime } from './server.js';

/** Where OpenCode writes its log, below a server's store (its XDG data directory). */
export function logDirectory(runtime: ServerRuntime, serverStore: string): string {
  return join(serverStore, runtime.directoryName, 'data', runtime.directoryName, 'log');
}

/**
 * OpenCode's own log since `since` (ms): its warnings and errors (`level=WARN`, `level=ERROR`),
 * what an operator reads, one line each, oldest file first.
 */
export async function loggedWarnings(runtime: ServerRuntime, serverStore: string, since: number): Promise<string[]> {
  const directory = logDirectory(runtime, serverStore);
  const names = (await readdir(directory).catch(() => [] as string[])).sort();
  const lines = await Promise.all(names.map((name) => readFile(join(directory, name), 'utf8').catch(() => '')));
  return lines
    .flatMap((text) => text.split('\n'))
    .filter((line) => /\blevel=(WARN|ERROR)\b/.test(line) && loggedAt(line) >= since);
}

/** When OpenCode logged a line (ms), from its leading `timestamp=`; NaN when it has none. */
export function loggedAt(line: string): number {
  const at = /^timestamp=(\S+)/.exec(line)?.[1];
  return at === undefined ? Number.NaN : Date.parse(at);
}
