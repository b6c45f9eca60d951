import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';

/**
 * An adapter started on its own and driven line by line, as an adapter's tests of itself drive
 * it: `send` writes a command with the next `seq` and resolves with the reply that echoes it.
 */
export function connectAdapter(adapterPath) {
  const child = spawn(process.execPath, [adapterPath], { stdio: ['pipe', 'pipe', 'inherit'] });
  const waiting = new Map();
  let seq = 0;
  createInterface({ input: child.stdout }).on('line', (line) => {
    const reply = JSON.parse(line);
    waiting.get(reply.seq)?.(reply);
  });
  const send = (command) =>
    new Promise((resolve) => {
      seq += 1;
      waiting.set(seq, resolve);
      child.stdin.write(`${JSON.stringify({ seq, ...command })}\n`);
    });
  return { send, end: () => child.stdin.end() };
}
