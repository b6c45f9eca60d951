import { isDeepStrictEqual } from 'node:util';
import { OpencodeServer, type ServerSettings, writeConfiguration } from './server.js';
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
    /** What the server was started with; the runtime's changes are written here. */
    readonly settings: ServerSettings,
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

  /**
   * Serves another scenario with a running server when it was started with what that scenario
   * starts with, its home aside: OpenCode reads its global configuration once per process, so a
   * server with any other setting is not taken over. The configuration directory then links to
   * the new home, whose instruction files OpenCode reads on every turn.
   */
  takeOver(settings: ServerSettings): boolean {
    const { home, ...wanted } = settings;
    const { home: _, ...running } = this.settings;
    if (!this.process?.running || !isDeepStrictEqual(wanted, running)) return false;
    this.settings.home = home;
    writeConfiguration(this.settings);
    return true;
  }

  /** The server's process, while it runs. */
  processIds(): number[] {
    const pid = this.process?.running ? this.process.pid : undefined;
    return pid === undefined ? [] : [pid];
  }

  async stop(): Promise<void> {
    await this.process?.stop();
  }

  stopNow(): void {
    this.process?.stopNow();
  }
}
