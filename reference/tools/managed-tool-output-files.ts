import { mkdir, readdir, rm, stat, utimes, writeFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import type { Clock } from '../clock.js';
import type { IdSource } from '../ids.js';

export interface ManagedToolOutputOptions {
  /** One flat directory shared by every session and location of the runtime. */
  directory: string;
  clock: Clock;
  ids: IdSource;
  /** How long a file is kept; the bounded Model Tool Output, not the file, is the durable record. */
  retentionMs: number;
  /** Awaited once a file is complete, before the settlement that names it is published. */
  onFileWritten?: (path: string) => Promise<void>;
}

export const DEFAULT_RETENTION_MS = 7 * 24 * 60 * 60 * 1000;

const PREFIX = 'tool_';

/** Managed Tool Output Files: complete outputs too large for session history, kept for a while. */
export class ManagedToolOutputFiles {
  readonly directory: string;

  constructor(private readonly options: ManagedToolOutputOptions) {
    this.directory = resolve(options.directory);
  }

  /** Creates a new file holding exactly `text`; throws when it cannot be written. */
  async write(text: Buffer): Promise<string> {
    await mkdir(this.directory, { recursive: true });
    const path = join(this.directory, this.options.ids.next('tool'));
    // Exclusive create: a name is never reused, even if an ID source repeated itself.
    await writeFile(path, text, { flag: 'wx' });
    // The modification time is the runtime's clock, so retention follows the clock a host gives it.
    const now = this.options.clock.now();
    await utimes(path, now, now);
    await this.options.onFileWritten?.(path);
    return path;
  }

  /** A path this store manages: a file directly in its directory, under its naming scheme. */
  manages(path: string): boolean {
    const absolute = resolve(path);
    return dirname(absolute) === this.directory && absolute.slice(this.directory.length + 1).startsWith(PREFIX);
  }

  /** Removes the files whose retention has passed by the runtime's clock. */
  async sweep(): Promise<void> {
    const names = await readdir(this.directory).catch(() => []);
    const expiredBefore = this.options.clock.now().getTime() - this.options.retentionMs;
    for (const name of names.filter((n) => n.startsWith(PREFIX))) {
      const path = join(this.directory, name);
      if ((await stat(path)).mtime.getTime() <= expiredBefore) await rm(path, { force: true });
    }
  }
}
