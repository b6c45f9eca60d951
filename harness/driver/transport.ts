import type { Command, Reply, RuntimeConfig } from './protocol.js';

/** How commands reach one running runtime process. */
export interface Transport {
  send(command: Command): Promise<Reply>;
  /** Ends the runtime at once, as a crash would: no cleanup, no further writes. */
  kill(): Promise<void>;
}

/** Starts runtime processes; each call to `start` is a fresh process over `config.storeDir`. */
export interface RuntimeLauncher {
  readonly name: string;
  start(config: RuntimeConfig): Promise<Transport>;
}
