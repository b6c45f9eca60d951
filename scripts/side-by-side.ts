// Runs shell commands side by side, as many at a time as the machine has cores (at least two),
// starting them in the order given, and keeps each command's output together: the first command
// not yet finished streams as it runs, the others are held and printed after it, in order.
// Exits with the code of the first command, in that order, that failed. With --all-at-once every
// command starts at once, for commands that mostly wait (CI's lanes, one of which waits on its runtimes).
// Usage: tsx scripts/side-by-side.ts [--all-at-once] '<command>' '<command>' ...
import { spawn } from 'node:child_process';
import { availableParallelism } from 'node:os';

interface Job {
  command: string;
  /** What it printed, stdout and stderr as they came, until it is its turn to print. */
  held: Buffer[];
  /** Its exit code once it ended; a signal counts as 1. */
  code?: number;
  /** When it started and how long it ran, in seconds: which job holds the others up. */
  started?: number;
  seconds?: number;
}

const allAtOnce = process.argv[2] === '--all-at-once';
const jobs: Job[] = process.argv.slice(allAtOnce ? 3 : 2).map((command) => ({ command, held: [] }));
const width = allAtOnce ? jobs.length : Math.max(2, availableParallelism());
/** The job whose output goes straight out: every job before it has ended and been printed. */
let head = 0;
let started = 0;

const begun = performance.now() / 1000;
const write = (chunk: Buffer | string) => process.stdout.write(chunk);

function print(index: number, chunk: Buffer): void {
  if (index === head) write(chunk);
  else jobs[index]!.held.push(chunk);
}

/** Moves the head past every ended job, printing what each held. */
function advance(): void {
  while (head < jobs.length) {
    const job = jobs[head]!;
    for (const chunk of job.held.splice(0)) write(chunk);
    if (job.code === undefined) return;
    if (job.code !== 0) write(`✖ exit code ${job.code}: ${job.command}\n`);
    write(
      `(${job.seconds!.toFixed(0)} s, ended ${(job.started! + job.seconds! - begun).toFixed(0)} s after the first began)\n`,
    );
    head += 1;
    if (head < jobs.length) write(`\n> ${jobs[head]!.command}\n`);
  }
  const failed = jobs.find((job) => job.code !== 0);
  process.exitCode = failed?.code ?? 0;
}

function start(): void {
  const index = started++;
  const job = jobs[index];
  if (!job) return;
  job.started = performance.now() / 1000;
  const child = spawn(job.command, {
    shell: true,
    stdio: ['ignore', 'pipe', 'pipe'],
    // Held output loses the terminal, not its colours.
    env: process.stdout.isTTY && !('NO_COLOR' in process.env) ? { FORCE_COLOR: '1', ...process.env } : process.env,
  });
  child.stdout.on('data', (chunk: Buffer) => print(index, chunk));
  child.stderr.on('data', (chunk: Buffer) => print(index, chunk));
  child.on('close', (code) => {
    job.code = code ?? 1;
    job.seconds = performance.now() / 1000 - job.started!;
    advance();
    start();
  });
}

if (jobs.length > 0) write(`> ${jobs[0]!.command}\n`);
for (let i = 0; i < Math.min(width, jobs.length); i++) start();
