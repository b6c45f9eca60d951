import type { Capability } from '../../harness/protocol/capabilities.js';

/**
 * Deliberately broken variants of the reference runtime. Each breaks one rule the way real
 * runtimes do; the suite must fail for every clause listed against it. A mutant whose text no
 * longer matches the reference is itself reported, so this list cannot silently rot.
 */
export interface Edit {
  /** File under `reference/`. */
  file: string;
  find: string;
  replace: string;
}

/**
 * The ways real runtimes go wrong that a black box must still catch. A mutant of a kind is judged
 * twice: in process, and over stdio with only the runtime's own means (REFERENCE_MEANS=neutral),
 * and must be caught by an assertion both times.
 */
export const mutantKinds = [
  'state held only in memory',
  'stale cache',
  'multibyte data',
  'partial comparison',
  'second occurrence',
  'counting by status',
  'edge value',
  'retry after partial output',
  'ordering in time',
  'usage after compaction',
  'configuration precedence',
  'containment by prefix',
  'atomicity',
  'tools left out of the estimate',
  'media left out of the estimate',
  'media weighed by their encoding',
  'one kind of media taken for another',
  'promoted item loses its sequence',
  'facts only the protocol reports',
  'identity in the wrong scope',
] as const;
export type MutantKind = (typeof mutantKinds)[number];

export interface Mutant extends Edit {
  name: string;
  /** The class of wrong implementation it stands for (see `mutantKinds`). */
  kind?: MutantKind;
  /**
   * The optional capability only through which a runtime can show the defect (a location's
   * contributed tools, say): the mutant of a kind is then not judged with the runtime's own means.
   */
  needs?: Capability;
  /**
   * Only a black box driven by its own means shows it (REFERENCE_MEANS=neutral, over stdio): the
   * kit's tools are handed in their input what the defect keeps (a produce call's text), so only a
   * shell command that prints it tells a kept input from a kept output.
   */
  ownMeansOnly?: true;
  /** The reference's profile to run it in (REFERENCE_PROFILE); the core profile when absent. */
  profile?: 'checkpoint' | 'sol' | 'continuation';
  /** Further edits of the same defect, elsewhere. */
  also?: Edit[];
  /**
   * The clauses of rules/index.md it breaks, written as the clause table writes them (`INB-01 (a)`):
   * the scenarios listed under each must fail against this mutant, by an assertion.
   */
  clauses: string[];
  /**
   * The scenarios that catch it crash the runtime for real (capability fault-injection), which
   * only a runtime in its own process can: run the mutant over stdio
   * (the self-check bundles the mutated stdio adapter and runs it with `--adapter`).
   */
  stdio?: true;
}

/** The rules a mutant breaks: those of its clauses, in the order first named. */
export function rulesBroken(mutant: Mutant): string[] {
  // A set written elsewhere may name a rule alone, with no clause letter after it.
  return [...new Set(mutant.clauses.map((clause) => clause.split(' ')[0]!))];
}
