import { existsSync, statSync } from 'node:fs';
import { basename } from 'node:path';
import { KitInputError } from '../../../harness/input-error.js';
import type { ReplayArgs } from './command.js';

/** A directory or a `bundle.json` is a repro bundle; anything else a session script. */
export async function replay(args: ReplayArgs): Promise<number> {
  const isBundle =
    (existsSync(args.file) && statSync(args.file).isDirectory()) || basename(args.file) === 'bundle.json';
  if (!isBundle) return (await import('./replay-script.js')).replaySessionScript(args);
  const scriptOnly = (['out', 'full', 'keep'] as const).find((option) => args[option]);
  if (scriptOnly)
    throw new KitInputError(`--${scriptOnly}`, 'applies to session scripts; a repro bundle reruns its scenario');
  return (await import('./replay-bundle.js')).replayBundle(args);
}
