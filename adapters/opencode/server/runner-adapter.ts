import { PROTOCOL, Refusal, type StdioAdapter } from '../../../harness/adapter/stdio-serve.mjs';

export type Command = { cmd: string } & Record<string, unknown>;

/** What the kit's hello configures that both runners read. */
export interface HelloConfig {
  storeDir: string;
  home: string;
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
export interface RunnerRuntime {
  handle(command: Command): Promise<unknown>;
  stop(): Promise<void>;
  stopNow(): void;
}

/**
 * The adapter of one OpenCode runner, as the stdio loop serves it: `hello` starts the runtime from
 * its configuration and answers the handshake; a command the runner has no equivalent for is
 * refused with the reason its README records; OpenCode's refusals (ApiError) are failure replies;
 * the server is stopped however the adapter ends.
 */
export function runnerAdapter<R extends RunnerRuntime>(
  start: (config: unknown) => R,
  handshake: () => Record<string, unknown>,
  unsupported: Record<string, string>,
): StdioAdapter {
  let runtime: R | undefined;
  return {
    runtime: 'OpenCode',
    hello: (config: unknown) => {
      runtime ??= start(config);
      return { protocol: PROTOCOL, ...handshake() };
    },
    commands: (command: Command) => runtime!.handle(command),
    unsupported,
    end: async () => runtime?.stop(),
    endNow: () => runtime?.stopNow(),
  };
}
