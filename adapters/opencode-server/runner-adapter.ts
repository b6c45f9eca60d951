import type { Reply, StdioAdapter } from './stdio.js';

export const PROTOCOL = 'session-runtime-adapter/1';

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

/** OpenCode's answer to a request, translated into the protocol's closed error vocabulary. */
export class ApiError extends Error {
  constructor(
    readonly code: 'invalid-input' | 'conflict' | 'not-found' | 'unsupported' | 'busy',
    message: string,
  ) {
    super(message);
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
 * The adapter of one OpenCode runner: `hello` checks the protocol, starts the runtime from its
 * configuration and answers the handshake; a command the runner has no equivalent for is refused
 * with the reason its README records; OpenCode's refusals are failure replies.
 */
export function runnerAdapter<R extends RunnerRuntime>(
  start: (config: unknown) => R,
  handshake: () => Record<string, unknown>,
  unsupported: Record<string, string>,
): StdioAdapter {
  let runtime: R | undefined;
  return {
    async handle(command) {
      if (command.cmd === 'hello') {
        if (command.protocol !== PROTOCOL) return failure('unsupported', `this adapter speaks ${PROTOCOL} only`);
        runtime ??= start(command.config);
        return { ok: true, result: { protocol: PROTOCOL, ...handshake() } };
      }
      if (!runtime) return failure('invalid-input', 'the first command must be hello');
      if (command.cmd in unsupported) return failure('unsupported', unsupported[command.cmd]!);
      try {
        return { ok: true, result: (await runtime.handle(command)) ?? {} };
      } catch (error) {
        if (error instanceof ApiError) return failure(error.code, error.message);
        throw error;
      }
    },
    terminate: async () => runtime?.stop(),
    terminateNow: () => runtime?.stopNow(),
  };
}

function failure(code: string, message: string): Reply {
  return { ok: false, error: { code, message } };
}
