import type { Command, Reply } from './protocol.js';

/** How commands reach one running runtime process. */
export interface Transport {
  send(command: Command): Promise<Reply>;
  /** Ends the runtime at once, as a crash would: no cleanup, no further writes. */
  kill(): Promise<void>;
  /**
   * The runtime was asked to kill itself (`fault.crash`): its exit is expected, commands it
   * leaves unanswered fail, and the promise resolves once the process has exited. Only a
   * runtime in a process of its own can crash.
   */
  expectExit?(): Promise<void>;
}

/** Starts runtime processes; each start is a fresh process, configured by its `hello` command. */
export interface RuntimeLauncher {
  /** How reports name the runtime under test. */
  readonly name: string;
  start(): Promise<Transport>;
}
