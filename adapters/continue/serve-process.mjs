import { spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

const CN = fileURLToPath(new URL('./node_modules/@continuedev/cli/dist/cn.js', import.meta.url));
const OFFLINE = new URL('./offline.mjs', import.meta.url).href;

/** How long a start may take on a loaded machine: Continue loads a 13 MB bundle first. */
const START_MS = 120_000;

/**
 * One `cn serve` process: Continue's HTTP server for one session (`--id`), working in the
 * session's location. It runs in a process group of its own, so that stopping it also ends the
 * login shells its Bash tool starts (`$SHELL -l -c`, not detached). Every group started is killed
 * when the adapter's process ends (`killAll`).
 */
export class ServeProcess {
  static groups = new Set();

  static killAll() {
    for (const pid of ServeProcess.groups) killGroup(pid);
    ServeProcess.groups.clear();
  }

  constructor({ cwd, env, args, onDiagnostic }) {
    this.ready = freePort().then((port) => this.#start({ cwd, env, args, port, onDiagnostic }));
    this.ready.catch(() => {});
  }

  #start({ cwd, env, args, port, onDiagnostic }) {
    const child = spawn(
      process.execPath,
      ['--import', OFFLINE, CN, 'serve', '--port', String(port), '--timeout', '86400', ...args],
      { cwd, env, stdio: ['ignore', 'pipe', 'pipe'], detached: true },
    );
    this.child = child;
    ServeProcess.groups.add(child.pid);
    this.exited = new Promise((resolve) =>
      child.on('exit', (code, signal) => {
        ServeProcess.groups.delete(child.pid);
        this.gone = true;
        resolve();
        onDiagnostic(`cn serve exited (${signal ?? code})`);
      }),
    );
    createInterface({ input: child.stderr }).on('line', onDiagnostic);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`cn serve did not start within ${START_MS} ms`)), START_MS);
      child.on('error', reject);
      this.exited.then(() => reject(new Error('cn serve exited before it listened')));
      createInterface({ input: child.stdout }).on('line', (line) => {
        // Continue swallows a listen error and idles: only this line says it listens.
        if (line.includes(`Server started on http://localhost:${port}`)) {
          clearTimeout(timer);
          this.base = `http://127.0.0.1:${port}`;
          resolve(this);
        }
      });
    });
  }

  async call(method, path, body) {
    await this.ready;
    const response = await fetch(`${this.base}${path}`, {
      method,
      headers: body ? { 'content-type': 'application/json' } : {},
      body: body && JSON.stringify(body),
    });
    const answer = await response.json();
    if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${answer.error ?? ''}`);
    return answer;
  }

  /** `GET /state`: the session, `isProcessing`, `messageQueueLength`, `pendingPermission`. */
  state = () => this.call('GET', '/state');
  /** `POST /message`: queued behind the running turn, or run at once. */
  message = (message) => this.call('POST', '/message', { message });
  /** `POST /pause`: aborts the running turn. */
  pause = () => this.call('POST', '/pause');
  /** `POST /permission`: answers the pending permission request. */
  permission = (requestId, approved) => this.call('POST', '/permission', { requestId, approved });

  /**
   * Ends the process and everything it started. Continue writes the session file synchronously on
   * every change of the history, so a kill loses nothing a clean exit would keep.
   */
  stop() {
    if (!this.child) return;
    killGroup(this.child.pid);
    ServeProcess.groups.delete(this.child.pid);
  }
}

function killGroup(pid) {
  try {
    process.kill(-pid, 'SIGKILL');
  } catch {
    // Already gone.
  }
}

/** A port nothing listens on now; `cn serve` binds it on all interfaces. */
function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.on('error', reject);
    server.listen(0, () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}
