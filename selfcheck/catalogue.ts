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
  const module = (await import(pathToFileURL(resolve(file)).href)) as {
    mutantsByArea?: Record<string, WrittenElsewhere[]>;
  };
  if (!module.mutantsByArea) throw new Error(`KIT_MUTANTS: ${file} exports no mutantsByArea`);
  return Object.fromEntries(
    Object.entries(module.mutantsByArea).map(([area, written]) => [area, written.map(withClauses)]),
  );
}

/** A mutant written without the clause table may name the rules it breaks (`breaks`) instead of clauses. */
type WrittenElsewhere = Omit<Mutant, 'clauses'> & { clauses?: string[]; breaks?: string[] };

/** Each rule named alone stands for all of it: every scenario of the rule judges the mutant. */
function withClauses({ breaks, clauses, ...mutant }: WrittenElsewhere): Mutant {
  const named = [...(clauses ?? []), ...(breaks ?? [])];
  if (named.length === 0) throw new Error(`KIT_MUTANTS: mutant "${mutant.name}" names no clause and no rule it breaks`);
  return { ...mutant, clauses: named };
}

/** Whether the catalogue is another than the kit's own. */
export const elsewhere = Boolean(process.env.KIT_MUTANTS);
export const mutantsByArea = await load();
export const mutants: Mutant[] = Object.values(mutantsByArea).flat();
