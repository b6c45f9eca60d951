import type { Command, Reply } from '../protocol/protocol.js';

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
  /** The last of what the runtime wrote to stderr, for reports, where it has one. */
  stderrTail?(): string;
  /**
   * Capability process-reuse: ends the runtime through `close` (the `runtime.close` command) and
   * keeps the process, with nothing else it started left running but the processes `close` says
   * it keeps, for its launcher's next start. A process with a command unanswered, or that fails
   * `close`, is killed instead.
   */
  release?(close: () => Promise<{ kept?: number[] }>): Promise<void>;
}

const STDERR_LINES_SHOWN = 20;

/** A report of a runtime's failure with the last lines of its stderr, which usually say why. */
export function withStderr(detail: string, stderr = ''): string {
  const lines = stderr.trimEnd().split('\n').slice(-STDERR_LINES_SHOWN).join('\n');
  return lines.trim() ? `${detail}\nadapter stderr (last lines):\n${lines}` : detail;
}

/** Starts runtime processes; each start is a fresh process, configured by its `hello` command. */
export interface RuntimeLauncher {
  /** How reports name the runtime under test. */
  readonly name: string;
  start(): Promise<Transport>;
  /** The process a transport's `release` kept, to be greeted again; undefined when there is none. */
  takeKept?(): Promise<Transport | undefined>;
  /** Ends the kept process, if any: nothing outlives the run. */
  close?(): Promise<void>;
}
