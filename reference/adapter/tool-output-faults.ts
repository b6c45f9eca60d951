import { rmSync, writeFileSync } from 'node:fs';

export type ToolOutputWriteMode = 'working' | 'failing' | 'holding';

/**
 * Real faults in Managed Tool Output File writes. `failing` puts a regular file where the
 * directory is (the kit runs as root, so permissions would not stop a write); `holding` keeps a
 * completed write from returning, so the kit can kill the process at exactly that point.
 */
export class ToolOutputFaults {
  private mode: ToolOutputWriteMode = 'working';
  private held = false;
  private readonly watchers: (() => void)[] = [];

  constructor(private readonly directory: string) {}

  set(mode: ToolOutputWriteMode): void {
    if (this.mode === 'failing' || mode === 'failing') rmSync(this.directory, { recursive: true, force: true });
    if (mode === 'failing') writeFileSync(this.directory, 'not a directory\n');
    this.mode = mode;
  }

  /** The runtime's hook after a file is complete: blocks for good while holding. */
  readonly afterWrite = (): Promise<void> => {
    if (this.mode !== 'holding') return Promise.resolve();
    this.held = true;
    for (const notify of this.watchers.splice(0)) notify();
    return new Promise(() => {});
  };

  /** Resolves once a write is held. */
  whenHeld(): Promise<void> {
    return this.held ? Promise.resolve() : new Promise((resolve) => this.watchers.push(resolve));
  }
}
