import { isDeepStrictEqual } from 'node:util';
import { OpencodeServer, type ServerSettings, sameProcess, writeConfiguration } from './server.js';
import { START_WITHIN_MS } from './runner-adapter.js';

/**
 * A runner's server: started with the first command that needs it, after any budget was
 * configured; a changed configuration is read again by the running server, or by a new one.
 */
export class ServerHandle {
  private server: Promise<OpencodeServer> | undefined;
  /** The current server process, known from its spawn on, listening or not. */
  private process: OpencodeServer | undefined;

  constructor(
    /** What the server serves; the runtime's changes are written here. */
    public settings: ServerSettings,
    /**
     * Whether a configuration read again reaches the locations the server already serves. The
     * classic runner reads it from each location's instance, which the reread disposes; the V2
     * runner's location services keep what they booted with (1.18.33), so a reread reaches only
     * locations served after it, and a change once one is served needs a restart.
     */
    private readonly rereadReachesServed: boolean,
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

  /**
   * Writes the change; a running server reads it again (`OpencodeServer.reread`) after
   * `onReread`, or, where that would not reach what it serves, for a change it reads only at start
   * (`sameProcess`) or when it does not take it, stops and starts again.
   */
  async reconfigure(change: Partial<ServerSettings>, onReread: () => void = () => {}): Promise<void> {
    const before = { ...this.settings };
    Object.assign(this.settings, change);
    // A restarted process is told again what the scenario configured before: the server it started serves that already.
    if (!this.server || isDeepStrictEqual(before, this.settings)) return;
    const running = this.server;
    onReread();
    if (this.rereadReachesServed && sameProcess(before, this.settings)) {
      writeConfiguration(this.settings);
      if (await (await running).reread(this.settings)) return;
    }
    this.server = undefined;
    await (await running).stop();
    await this.started();
  }

  /**
   * Serves another scenario with a running server whose process that scenario could have started,
   * its home aside: the configuration directory then links to the new home, whose instruction
   * files OpenCode reads on every turn, and a configuration other than the server's is read again
   * (`OpencodeServer.reread`), which reaches every location the scenario serves, none served yet.
   * A server that does not take it is not taken over.
   */
  async takeOver(settings: ServerSettings): Promise<boolean> {
    const server = this.server;
    if (!server || !this.process?.running || !sameProcess(settings, this.settings)) return false;
    const { home: _, ...wanted } = settings;
    const { home: __, ...running } = this.settings;
    this.settings = settings;
    writeConfiguration(settings);
    return isDeepStrictEqual(wanted, running) || (await server).reread(settings);
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
