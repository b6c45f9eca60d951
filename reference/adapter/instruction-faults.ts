import { realpathSync } from 'node:fs';
import { realpath, rename } from 'node:fs/promises';

/**
 * A real vanishing of an instruction file while the runtime reads it: at the next read of an armed
 * file, after the runtime found it there, the file is moved aside just before the read and put back
 * just after, as when an editor deletes a file and writes it again.
 */
export class InstructionFaults {
  /** The armed files, by canonical path: the runtime may name a file through a link. */
  private readonly armed = new Set<string>();

  vanishAtNextRead(path: string): void {
    this.armed.add(realpathSync(path));
  }

  /** The runtime's hook just before it reads an instruction file it found. */
  readonly beforeRead = async (path: string): Promise<(() => Promise<void>) | undefined> => {
    if (this.armed.size === 0) return undefined;
    const canonical = await realpath(path).catch(() => path);
    if (!this.armed.delete(canonical)) return undefined;
    const aside = `${canonical}.vanished`;
    await rename(canonical, aside);
    return () => rename(aside, canonical);
  };
}
