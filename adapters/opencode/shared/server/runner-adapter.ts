import { PROTOCOL, Refusal, type StdioAdapter } from '../../../../harness/adapter/stdio-serve.mjs';

export type Command = { cmd: string } & Record<string, unknown>;

/** What the kit's hello configures that both runners read. */
export interface HelloConfig {
  storeDir: string;
  home: string;
  runDir: string;
  timeZone?: string;
  provider: { dialect: string; baseUrl: string; apiKey: string; model: string; models?: string[] };
}

/** How long a server may take to listen: 7-17 s were measured on a loaded 2-core machine. */
export const START_WITHIN_MS = 60_000;

/** OpenCode's answer to a request, translated into the protocol's closed error vocabulary: a refusal. */
export class ApiError extends Refusal {
  constructor(
    override readonly code: 'invalid-input' | 'conflict' | 'not-found' | 'unsupported' | 'busy',
    message: string,
  ) {
    super(code, message);
    this.name = 'ApiError';
  }
}

/** One OpenCode runner as its adapter drives it. */
export interface RunnerRuntime<K> {
  handle(command: Command): Promise<unknown>;
  stop(): Promise<void>;
  stopNow(): void;
  /** Capability process-reuse: ends the runtime, returning what the next hello may take over. */
  close?(): Promise<K>;
}

/** What a closed runtime leaves for the next one: its processes, stopped however the adapter ends. */
export interface Kept {
  processIds(): number[];
  stop(): Promise<void>;
  stopNow(): void;
}

/**
 * The adapter of one OpenCode runner, as the stdio loop serves it: `hello` opens the runtime from
 * its configuration and what the runtime closed before left (answering once it is ready, so the
 * kit counts what it started as the adapter's own); a command the runner has no equivalent for is
 * refused with the reason its README records; OpenCode's refusals (ApiError) are failure replies;
 * the server is stopped however the adapter ends.
 */
export function runnerAdapter<K extends Kept, R extends RunnerRuntime<K>>(
  title: string,
  open: (config: unknown, kept: K | undefined) => Promise<R>,
  handshake: () => Record<string, unknown>,
  unsupported: Record<string, string>,
): StdioAdapter {
  let runtime: R | undefined;
  let kept: K | undefined;
  return {
    runtime: title,
    hello: async (config: unknown) => {
      runtime ??= await open(config, kept);
      kept = undefined;
      return { protocol: PROTOCOL, ...handshake() };
    },
    commands: async (command: Command) => {
      if (command.cmd !== 'runtime.close' || !runtime?.close) return runtime!.handle(command);
      kept = await runtime.close();
      runtime = undefined;
      return { kept: kept.processIds() };
    },
    unsupported,
    end: async () => {
      await runtime?.stop();
      await kept?.stop();
    },
    endNow: () => {
      runtime?.stopNow();
      kept?.stopNow();
    },
  };
}
