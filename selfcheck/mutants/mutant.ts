/**
 * Deliberately broken variants of the reference runtime. Each breaks one rule the way real
 * runtimes do; the suite must fail for every rule listed against it. A mutant whose text no
 * longer matches the reference is itself reported, so this list cannot silently rot.
 */
export interface Edit {
  /** File under `reference/`. */
  file: string;
  find: string;
  replace: string;
}

export interface Mutant extends Edit {
  name: string;
  /** The reference's profile to run it in (REFERENCE_PROFILE); the core profile when absent. */
  profile?: 'checkpoint' | 'sol' | 'continuation';
  /** Further edits of the same defect, elsewhere. */
  also?: Edit[];
  /** Rules whose scenarios must fail against this mutant. */
  breaks: string[];
  /**
   * The scenarios that catch it crash the runtime for real (capability fault-injection), which
   * only a runtime in its own process can: run the mutant over stdio
   * (the self-check bundles the mutated stdio adapter and runs it with `--adapter`).
   */
  stdio?: true;
}
