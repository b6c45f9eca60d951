import { createHash } from 'node:crypto';
import type { KitWorld } from './world.js';

/**
 * The hash function is the runtime's (LEG-01): one that declares it (`texts["checkpoint.hash"]`, a
 * node:crypto name, hex digest) is held to exact values; otherwise a held value must be a string
 * that is not the text, stay the same for the same text and change with it.
 */
export function holdsHashOf(world: KitWorld, text: string, held: unknown): boolean {
  const algorithm = world.driver.description.texts['checkpoint.hash'];
  if (algorithm === undefined) return typeof held === 'string' && held.length > 0 && !held.includes(text);
  world.tookReading('checkpoint.hash', algorithm);
  return held === createHash(algorithm).update(text).digest('hex');
}
