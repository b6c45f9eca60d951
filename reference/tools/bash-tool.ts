import { spawn } from 'node:child_process';
import type { Tool } from './tool.js';

/**
 * The shell every coding runtime offers: `command` runs with `sh -c` in the working directory.
 * Its output (stdout and stderr as they arrive) is the result; a non-zero exit fails the call with
 * that output and the status. Stopping the drain kills the command.
 */
export const bashTool: Tool = {
  name: 'bash',
  description: 'Runs `command` with sh -c in the working directory and returns its output; fails when it exits non-zero.',
  parameters: { type: 'object', properties: { command: { type: 'string' } }, required: ['command'] },
  execute(input, { location, signal }) {
    return new Promise((resolve, reject) => {
      const child = spawn('sh', ['-c', String(input.command ?? '')], { cwd: location, stdio: ['ignore', 'pipe', 'pipe'], signal, killSignal: 'SIGKILL' });
      const chunks: Buffer[] = [];
      child.stdout.on('data', (chunk: Buffer) => chunks.push(chunk));
      child.stderr.on('data', (chunk: Buffer) => chunks.push(chunk));
      child.on('error', reject);
      child.on('close', (code, killed) => {
        const output = Buffer.concat(chunks).toString('utf8');
        if (code === 0) resolve(output);
        else reject(new Error(`${output}${output === '' || output.endsWith('\n') ? '' : '\n'}exit status ${code ?? killed}`));
      });
    });
  },
};
