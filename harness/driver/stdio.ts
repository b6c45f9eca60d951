import { spawn, type ChildProcess } from 'node:child_process';
import type { Socket } from 'node:net';
import { createInterface } from 'node:readline';
import type { Command, Reply } from '../protocol/protocol.js';
import { withStderr, type RuntimeLauncher, type Transport } from './transport.js';
import {
  ADAPTER_MARK,
  adapterProcesses,
  killMarkedAndSettle,
  markedProcesses,
  newAdapterMark,
  sweepOnExit,
} from './process-sweep.js';

/** The adapter process misbehaved: it died, or wrote something that is not a reply. */
export class AdapterFailed extends Error {
  constructor(
    detail: string,
    stderr: string,
    /** The adapter's process ended without the kit asking it to. */
    readonly exitedUnasked = false,
  ) {
    super(withStderr(detail, stderr));
    this.name = 'AdapterFailed';
  }
}

const STDERR_KEPT = 4096;

/**
 * Runs an adapter command as a child process speaking newline-delimited JSON on stdin and stdout.
 * The process leads its own process group and carries a mark in its environment, so a kill
 * reaches everything it started, even what left the group (see process-sweep.ts). An adapter
 * declaring process-reuse may be released after a scenario: the launcher keeps it, one at a time
 * since a run drives one runtime at a time, for the next scenario's `hello`.
 */
export function stdioLauncher(command: string): RuntimeLauncher {
  let kept: StdioTransport | undefined;
  const take = () => {
    const transport = kept;
    kept = undefined;
    return transport;
  };
  return {
    name: command,
    start: async () =>
      new StdioTransport(command, async (transport) => {
        await take()?.kill();
        transport.hold(false);
        kept = transport;
      }),
    async takeKept() {
      const transport = take();
      transport?.hold(true);
      if (transport?.alive()) return transport;
      await transport?.kill();
      return undefined;
    },
    close: async () => take()?.end(),
  };
}

/** How long a kept adapter may take to end by itself once its stdin closed, before it is killed. */
const ENDS_WITHIN_MS = 10_000;

interface Pending {
  command: Command;
  resolve: (reply: Reply) => void;
  reject: (error: Error) => void;
}

class StdioTransport implements Transport {
  private readonly child: ChildProcess;
  private readonly pending = new Map<number, Pending>();
  private readonly exited: Promise<void>;
  private nextSeq = 1;
  private stderr = '';
  private broken: AdapterFailed | undefined;
  private killed = false;
  private crashExpected = false;
  private readonly mark = newAdapterMark();
  private readonly forget = sweepOnExit(this.mark);
  /**
   * The adapter's own processes (see adapterProcesses) as they were when it first answered,
   * before any scenario drove its runtime. A released process keeps them; everything else it
   * started is killed. Without them (no `/proc`) a process is never kept: nothing else could tell
   * what its runtime started.
   */
  private own: ReadonlySet<number> | undefined;
  private answered = false;

  constructor(
    command: string,
    private readonly keep: (transport: StdioTransport) => Promise<void>,
  ) {
    this.child = spawn(command, {
      shell: true,
      detached: true,
      stdio: ['pipe', 'pipe', 'pipe'],
      env: { ...process.env, [ADAPTER_MARK]: this.mark },
    });
    this.child.stderr!.on('data', (chunk: Buffer) => {
      this.stderr = (this.stderr + chunk.toString('utf8')).slice(-STDERR_KEPT);
    });
    this.child.stdin!.on('error', () => {}); // A dead adapter is reported through its exit.
    createInterface({ input: this.child.stdout!, crlfDelay: Infinity }).on('line', (line) => this.receive(line));
    this.exited = new Promise((resolve) => {
      this.child.on('exit', (code, signal) => {
        if (!this.killed)
          this.fail(
            `the adapter exited (${signal ? `signal ${signal}` : `code ${code}`})${this.crashExpected ? ', as it was asked to' : ''}`,
            !this.crashExpected,
          );
        resolve();
      });
      this.child.on('error', (error) => {
        this.fail(`the adapter could not start: ${error.message}`);
        resolve();
      });
    });
  }

  stderrTail(): string {
    return this.stderr;
  }

  send(command: Command): Promise<Reply> {
    if (this.broken) return Promise.reject(this.broken);
    const seq = this.nextSeq++;
    return new Promise((resolve, reject) => {
      this.pending.set(seq, { command, resolve, reject });
      this.child.stdin!.write(`${JSON.stringify({ seq, ...command })}\n`);
    });
  }

  expectExit(): Promise<void> {
    this.crashExpected = true;
    return this.exited;
  }

  async release(close: () => Promise<{ kept?: number[] }>): Promise<void> {
    const closed = this.quiet()
      ? await close().then(
          (result) => result,
          () => undefined,
        )
      : undefined;
    if (closed && this.quiet()) {
      // Nothing the runtime started outlives its scenario but the processes the adapter keeps,
      // when they are its own (they carry its mark); what they started ends too.
      const marked = new Set(markedProcesses(this.mark));
      const kept = (closed.kept ?? []).filter((pid) => marked.has(pid));
      await killMarkedAndSettle(this.mark, undefined, new Set([...this.own!, ...kept]));
      this.stderr = '';
      await this.keep(this);
      return;
    }
    await this.kill();
  }

  /**
   * A kept process waits without keeping the kit alive: should a run end without closing its
   * launcher, the kit still exits, and its exit sweep ends the process.
   */
  hold(held: boolean): void {
    const handles = [this.child, this.child.stdin, this.child.stdout, this.child.stderr] as (Socket | null)[];
    for (const handle of handles) {
      if (held) handle?.ref();
      else handle?.unref();
    }
  }

  /** Whether the process still runs and has not broken the protocol. */
  alive(): boolean {
    return !this.broken && this.child.exitCode === null && this.child.signalCode === null;
  }

  /** Alive, with its own processes known and no command waiting for an answer. */
  private quiet(): boolean {
    return this.alive() && this.own !== undefined && this.pending.size === 0;
  }

  /** Closes the adapter's stdin, so it ends by itself, as it is told to; killed if it does not in time. */
  async end(): Promise<void> {
    this.killed = true;
    this.hold(true);
    this.child.stdin!.end();
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<void>((resolve) => (timer = setTimeout(resolve, ENDS_WITHIN_MS)));
    await Promise.race([this.exited, late]);
    clearTimeout(timer);
    await this.kill();
  }

  async kill(): Promise<void> {
    this.killed = true;
    this.hold(true);
    // What the adapter started may outlive it, so the sweep runs even when it has exited.
    await killMarkedAndSettle(
      this.mark,
      this.child.exitCode === null && this.child.signalCode === null ? this.child.pid : undefined,
    );
    await this.exited;
    this.forget();
  }

  private receive(line: string): void {
    if (line.trim() === '') return;
    let reply: Reply & { seq?: unknown };
    try {
      reply = JSON.parse(line);
    } catch {
      this.fail(`the adapter wrote a line that is not JSON: ${line.slice(0, 200)}`);
      return;
    }
    const pending = typeof reply.seq === 'number' ? this.pending.get(reply.seq) : undefined;
    if (!pending) {
      this.fail(
        `the adapter replied with seq ${JSON.stringify(reply.seq)}, which no request is waiting for: ${line.slice(0, 200)}`,
      );
      return;
    }
    this.pending.delete(reply.seq as number);
    if (!this.answered && this.child.pid) this.own = adapterProcesses(this.mark, this.child.pid);
    this.answered = true;
    const { seq: _seq, ...rest } = reply;
    pending.resolve(rest as Reply);
  }

  /** Every waiting and later command fails with the same report. */
  private fail(detail: string, exitedUnasked = false): void {
    this.broken ??= new AdapterFailed(detail, this.stderr, exitedUnasked);
    for (const pending of this.pending.values())
      pending.reject(
        new AdapterFailed(`${detail} while ${pending.command.cmd} was waiting`, this.stderr, exitedUnasked),
      );
    this.pending.clear();
  }
}
