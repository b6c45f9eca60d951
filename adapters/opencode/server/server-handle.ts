import { OpencodeServer, type ServerSettings } from './server.js';
import { START_WITHIN_MS } from './runner-adapter.js';

/**
 * A runner's server: started with the first command that needs it, after any budget was
 * configured, and started again to read a changed configuration (OpenCode reads it only at start).
 */
export class ServerHandle {
  private server: Promise<OpencodeServer> | undefined;
  /** The current server process, known from its spawn on, listening or not. */
  private process: OpencodeServer | undefined;

  constructor(
    private readonly settings: ServerSettings,
    /** What must be in place before each start. */
    private readonly beforeStart: () => void = () => {},
  ) {}

  started(): Promise<OpencodeServer> {
    if (!this.server) {
      this.beforeStart();
      this.server = OpencodeServer.start(this.settings, START_WITHIN_MS, (server) => (this.process = server));
    }
    return this.server;
  }

  /** Writes the change; a running server stops (after `onRestart`) and starts again to read it. */
  async reconfigure(change: Partial<ServerSettings>, onRestart: () => void = () => {}): Promise<void> {
    Object.assign(this.settings, change);
    if (!this.server) return;
    const running = this.server;
    this.server = undefined;
    onRestart();
    await (await running).stop();
    await this.started();
  }

  async stop(): Promise<void> {
    await this.process?.stop();
  }

  stopNow(): void {
    this.process?.stopNow();
  }
}
