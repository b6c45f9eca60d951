import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { mutantsByArea as builtIn, type Mutant } from './mutants/index.js';

/**
 * The mutants the self-check judges: the kit's own catalogue, or the one a module named by
 * KIT_MUTANTS exports as `mutantsByArea` (a set of wrong implementations written without reading the
 * scenarios, judged by the same machinery).
 */
async function load(): Promise<Record<string, Mutant[]>> {
  const file = process.env.KIT_MUTANTS;
  if (!file) return builtIn;
  const module = (await import(pathToFileURL(resolve(file)).href)) as { mutantsByArea?: Record<string, Mutant[]> };
  if (!module.mutantsByArea) throw new Error(`KIT_MUTANTS: ${file} exports no mutantsByArea`);
  return module.mutantsByArea;
}

/** Whether the catalogue is another than the kit's own. */
export const elsewhere = Boolean(process.env.KIT_MUTANTS);
export const mutantsByArea = await load();
export const mutants: Mutant[] = Object.values(mutantsByArea).flat();
