import { createInterface } from 'node:readline';

/** A runtime behaviour the protocol cannot express as a reply: the adapter stops and says why. */
export class SilentStop extends Error {
  override name = 'SilentStop';
}

export type Reply = { ok: true; result: unknown } | { ok: false; error: { code: string; message: string } };

export interface StdioAdapter {
  handle(command: { cmd: string } & Record<string, unknown>): Promise<Reply>;
  terminate(): Promise<void>;
  terminateNow(): void;
}

/**
 * An OpenCode adapter behind session-runtime-adapter/1 on stdio: one JSON request per line in, one
 * reply per line out, requests served concurrently. Logs go to stderr only.
 */
export function serveStdio(adapter: StdioAdapter): void {
  const write = (reply: object) => process.stdout.write(`${JSON.stringify(reply)}\n`);

  /** Nothing outlives the adapter: the server is killed however the adapter ends. */
  process.on('exit', () => adapter.terminateNow());
  for (const signal of ['SIGTERM', 'SIGINT', 'SIGHUP'] as const) process.on(signal, () => process.exit(143));

  function die(error: unknown): never {
    process.stderr.write(
      `${error instanceof SilentStop ? `silent stop: ${error.message}` : error instanceof Error ? error.stack : String(error)}\n`,
    );
    adapter.terminateNow();
    process.exit(70);
  }

  createInterface({ input: process.stdin, crlfDelay: Infinity })
    .on('line', (line) => {
      if (line.trim() === '') return;
      let request: { seq?: unknown } & Record<string, unknown>;
      try {
        request = JSON.parse(line);
      } catch {
        write({ seq: null, ok: false, error: { code: 'invalid-input', message: 'the request is not JSON' } });
        return;
      }
      const { seq, ...command } = request;
      adapter
        .handle(command as never)
        .then((reply) => write({ seq, ...reply }))
        .catch(die);
    })
    .on('close', () => {
      void adapter.terminate().finally(() => process.exit(0));
    });
}
