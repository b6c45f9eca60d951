import type { Environment, PtyEnvironmentOverlay } from '../pty/pty-environment.js';

/**
 * The kit's host overlay for PTY environments: in a location the kit gave values for, it returns
 * them plus `KIT_PTY_CWD`, the working directory it was asked about; elsewhere nothing.
 */
export class KitPtyOverlay implements PtyEnvironmentOverlay {
  private readonly byLocation = new Map<string, Environment>();

  set(location: string, values: Environment): void {
    this.byLocation.set(location, values);
  }

  observe(location: string, cwd: string): Environment {
    const values = this.byLocation.get(location);
    return values ? { ...values, KIT_PTY_CWD: cwd } : {};
  }
}
