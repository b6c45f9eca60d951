import { join } from 'node:path';
import { runConformance } from '../harness/suite/conformance-run.js';
import { ruleOutcomes } from '../harness/report/summary.js';
import { mutants } from './mutants/index.js';
import { buildMutantRuntime, StaleMutant } from './mutant-runtime.js';

/**
 * One self-check worker: a long-lived process that loads Cucumber and the steps once, then judges
 * the mutants the runner sends it, one at a time, each against its own build of the reference.
 */

/** The runner's request: judge the mutant at `index` of the catalogue, building it in `work`. */
export interface Assignment {
  index: number;
  work: string;
  timeoutScale: number;
}

/** `verdict` is a report line's first word; `detail` says what escaped or went stale. */
export interface Judgement {
  index: number;
  verdict: 'caught' | 'MISSED' | 'STALE';
  detail?: string;
}

async function judge({ index, work, timeoutScale }: Assignment): Promise<Judgement> {
  const mutant = mutants[index]!;
  const runtime = join(work, `${index}.mjs`);
  try {
    await buildMutantRuntime(mutant, runtime);
  } catch (error) {
    if (error instanceof StaleMutant) return { index, verdict: 'STALE', detail: error.message };
    throw error;
  }
  // The reference reads its profile when its module loads, which happens once per mutant build.
  process.env.REFERENCE_PROFILE = mutant.profile ?? 'core';
  const results = await runConformance({
    runtime: mutant.stdio ? { adapter: `"${process.execPath}" "${runtime}"` } : { module: runtime },
    timeoutScale,
    validate: true,
    tags: mutant.breaks.map((rule) => `@${rule}`).join(' or '),
    formats: [],
    failFast: false,
    quiet: true,
  });
  const outcomes = ruleOutcomes(results);
  const missed = mutant.breaks.filter((rule) => outcomes.get(rule) !== 'failed');
  return missed.length === 0
    ? { index, verdict: 'caught' }
    : { index, verdict: 'MISSED', detail: `${missed.join(' ')} passed` };
}

process.on('message', (assignment: Assignment) => {
  judge(assignment).then(
    (judgement) => process.send!(judgement),
    (error: unknown) => {
      process.stderr.write(`selfcheck: ${error instanceof Error ? error.stack : String(error)}\n`);
      process.exit(70);
    },
  );
});

// The runner has no more work once it lets go of the channel.
process.on('disconnect', () => process.exit(0));
