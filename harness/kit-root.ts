import { fileURLToPath } from 'node:url';

/** The kit's own directory, so the kit finds its features and recordings from any working directory. */
export const KIT_ROOT = fileURLToPath(new URL('..', import.meta.url));

export function kitPath(...parts: string[]): string {
  return [KIT_ROOT.replace(/\/$/, ''), ...parts].join('/');
}
