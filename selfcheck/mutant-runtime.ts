import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { bundleModule } from '../harness/build/module-bundle.js';
import { kitPath } from '../harness/kit-root.js';
import type { Edit, Mutant } from './mutants/index.js';

/** A mutant whose text the reference no longer has: the catalogue must keep up. */
export class StaleMutant extends Error {}

/**
 * Builds the reference runtime with the mutant's defect as one module file, `out`: the in-process
 * adapter module, or the stdio adapter program. The edits are applied as the sources are read, so the reference is never
 * copied.
 */
export async function buildMutantRuntime(
  mutant: Mutant | undefined,
  out: string,
  program: 'module' | 'stdio',
): Promise<void> {
  const reference = kitPath('reference');
  const edited = new Map<string, string>();
  // No mutant: the reference as it is, the control its mutants are judged against.
  for (const edit of mutant ? [mutant, ...(mutant.also ?? [])] : []) {
    const file = join(reference, edit.file);
    edited.set(file, apply(edited.get(file) ?? read(file, edit), edit, mutant!.name));
  }
  await bundleModule({
    entry: join(reference, 'adapter', program === 'stdio' ? 'stdio.ts' : 'conformance-adapter.ts'),
    out,
    contents: (path) => edited.get(path),
  });
}

function read(file: string, edit: Edit): string {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    throw new StaleMutant(`reference/${edit.file} does not exist`);
  }
}

function apply(source: string, edit: Edit, name: string): string {
  const pattern = layoutFree(edit.find);
  const occurrences = source.match(pattern)?.length ?? 0;
  if (occurrences !== 1)
    throw new StaleMutant(`mutant "${name}": expected its text once in reference/${edit.file}, found ${occurrences}`);
  return source.replace(pattern, () => edit.replace);
}

/**
 * Matches the mutant's text whatever the formatter did to its layout: whitespace may appear or vanish
 * between any two characters, and a trailing comma may precede a closing bracket.
 */
function layoutFree(find: string): RegExp {
  const characters = [...find.replace(/\s+/g, '')];
  const escaped = characters.map((c) => (/[)\]}]/.test(c) ? ',?\\s*' : '') + c.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&'));
  return new RegExp(escaped.join('\\s*'), 'g');
}
