import { closeSync, openSync, readFileSync, readSync, readdirSync, readlinkSync } from 'node:fs';
import { setTimeout as delay } from 'node:timers/promises';

/**
 * Finds every process an adapter started, however far it went. A process group is left by
 * `setsid` (or a double fork), and an orphan's parent becomes init, so neither the group nor the
 * parent links reach everything. The environment does: each adapter is started with a mark of its
 * own, which its descendants inherit through fork, exec and setsid alike, and `/proc` shows it.
 * Where there is no `/proc`, killing the process group is all that can be done.
 */
export const ADAPTER_MARK = 'KIT_ADAPTER_MARK';

let marks = 0;

/** A mark no other adapter of this or another kit process carries. */
export function newAdapterMark(): string {
  marks += 1;
  return `${process.pid}-${marks}-${Date.now().toString(36)}`;
}

/** One buffer for every environment read: a sweep reads every process's, once per scenario. */
const environ = Buffer.allocUnsafe(1 << 16);

/** `pid`'s environment; empty when it cannot be read. */
function readEnviron(pid: string): Buffer {
  const path = `/proc/${pid}/environ`;
  let fd: number | undefined;
  try {
    fd = openSync(path, 'r');
    let length = 0;
    for (let read = 1; read > 0 && length < environ.length; length += read)
      read = readSync(fd, environ, length, environ.length - length, null);
    // Rarely an environment is larger than the buffer: then it is read whole.
    return length < environ.length ? environ.subarray(0, length) : readFileSync(path);
  } catch {
    // Gone meanwhile, or not ours to read.
    return environ.subarray(0, 0);
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/** The processes, other than this one, whose environment carries `mark`. */
export function markedProcesses(mark: string): number[] {
  let entries: string[];
  try {
    entries = readdirSync('/proc');
  } catch {
    return [];
  }
  forgetReallocatedPids();
  const self = String(process.pid);
  const found: number[] = [];
  for (const entry of entries) {
    // Only the numeric entries are processes.
    const digit = entry.charCodeAt(0);
    if (digit < 48 || digit > 57 || entry === self) continue;
    let carried = marksSeen.get(entry);
    // A process carrying this mark is read again: once killed, it shows none.
    if (carried === undefined || carried === mark) {
      carried = markIn(readEnviron(entry));
      marksSeen.set(entry, carried);
    }
    if (carried === mark) found.push(Number(entry));
  }
  return found;
}

/** `\0KIT_ADAPTER_MARK=`: the entry after another, or without its first byte, the first entry. */
const MARK_AFTER_ENTRY = Buffer.from(`\0${ADAPTER_MARK}=`);
const MARK_ENTRY = MARK_AFTER_ENTRY.subarray(1);

/** The mark an environment carries, or '' for none. */
function markIn(env: Buffer): string {
  const first = env.subarray(0, MARK_ENTRY.length).equals(MARK_ENTRY);
  const after = first ? -1 : env.indexOf(MARK_AFTER_ENTRY);
  if (!first && after < 0) return '';
  const start = (first ? 0 : after + 1) + MARK_ENTRY.length;
  const end = env.indexOf(0, start);
  return env.toString('latin1', start, end < 0 ? env.length : end);
}

/**
 * The mark each process was found with ('' for none), so that a sweep reads only processes it has
 * not seen: a process's environment is fixed when it starts, and what it forks inherits it. A pid
 * handed out since a process was read may name another process, so those are forgotten.
 */
const marksSeen = new Map<string, string>();
let lastPid: number | undefined;

function forgetReallocatedPids(): void {
  let now: number;
  try {
    now = Number(readFileSync('/proc/sys/kernel/ns_last_pid', 'latin1'));
  } catch {
    marksSeen.clear();
    return;
  }
  const since = lastPid;
  lastPid = now;
  if (since === undefined || now === since) return;
  // Pids are handed out in order, wrapping around: the ones handed out since lie after `since`, up to `now`.
  for (const pid of marksSeen.keys()) {
    const n = Number(pid);
    if (now > since ? n > since && n <= now : n > since || n <= now) marksSeen.delete(pid);
  }
}

/**
 * The adapter itself, apart from what its runtime started: `leader` and the processes carrying
 * `mark` that read the same input as it does, the kit's requests (a shell, a launcher, the
 * process serving them). What a runtime starts reads its own input, unless it hands its own down.
 * Undefined where `/proc` does not tell them apart.
 */
export function adapterProcesses(mark: string, leader: number): Set<number> | undefined {
  const input = (pid: number) => {
    try {
      return readlinkSync(`/proc/${pid}/fd/0`);
    } catch {
      return undefined;
    }
  };
  const requests = input(leader);
  if (requests === undefined) return undefined;
  return new Set([leader, ...markedProcesses(mark).filter((pid) => input(pid) === requests)]);
}

/**
 * Kills the adapter's process group and every process carrying its mark but those `spared`, again
 * until none is left, since one may fork while the others die. A killed process no longer shows
 * its environment, so each round finds only the living. Returns whether any still showed after
 * the last round: a busy machine ends a killed process only when it schedules it.
 */
export function killMarked(mark: string, groupLeader?: number, spared?: ReadonlySet<number>): boolean {
  if (groupLeader) signal(-groupLeader);
  for (let round = 0; round < 10; round++) {
    const living = markedProcesses(mark).filter((pid) => !spared?.has(pid));
    if (living.length === 0) return false;
    for (const pid of living) signal(pid);
  }
  return true;
}

/** How long killed processes may take to end before the kit goes on without waiting. */
const KILL_SETTLES_MS = 5_000;

/**
 * As `killMarked`, then, while killed processes still show (a zombie shows no environment), kills
 * and looks again, so that what the next scenario sees was not started by this one.
 */
export async function killMarkedAndSettle(
  mark: string,
  groupLeader?: number,
  spared?: ReadonlySet<number>,
): Promise<void> {
  const until = performance.now() + KILL_SETTLES_MS;
  for (let left = killMarked(mark, groupLeader, spared); left && performance.now() < until; ) {
    await delay(2);
    left = killMarked(mark, undefined, spared);
  }
}

const living = new Set<string>();

/**
 * Keeps `mark` to be swept should the kit itself end first (an error, Ctrl-C) while its adapter
 * runs; returns the function that forgets it once the adapter was killed.
 */
export function sweepOnExit(mark: string): () => void {
  if (living.size === 0 && !sweeping) installSweep();
  living.add(mark);
  return () => living.delete(mark);
}

let sweeping = false;

function installSweep(): void {
  sweeping = true;
  const sweep = () => {
    for (const mark of living) killMarked(mark);
  };
  process.on('exit', sweep);
  for (const name of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
    process.once(name, () => {
      sweep();
      // Then end as the signal would have ended the kit.
      process.kill(process.pid, name);
    });
  }
}

function signal(pid: number): void {
  try {
    process.kill(pid, 'SIGKILL');
  } catch {
    // Already gone.
  }
}
