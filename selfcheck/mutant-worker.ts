import { join } from 'node:path';
import { runConformance } from '../harness/suite/conformance-run.js';
import { isFailure } from '../harness/report/outcome.js';
import type { Mutant } from './mutants/index.js';
import { mutants } from './catalogue.js';
import { buildMutantRuntime, StaleMutant } from './mutant-runtime.js';
import { readScenarios, type IndexedScenario } from '../harness/suite/suite-index.js';
import { readClauses, type Clause } from '../harness/suite/clauses.js';
import { clauseJudging, clauseVerdicts, everyClauseCaught, type ClauseJudging } from './clause-judging.js';
import { kitPath } from '../harness/kit-root.js';

/**
 * One self-check worker: a long-lived process that loads Cucumber and the steps once, then judges
 * the mutants the runner sends it, one at a time, each against its own build of the reference.
 */

let suite: IndexedScenario[] | undefined;
let table: Clause[] | undefined;

/** The scenarios that judge a mutant, and which of them judge each clause it names. */
function judging(mutant: Mutant): ClauseJudging {
  suite ??= readScenarios(kitPath('features'));
  table ??= readClauses(kitPath('rules', 'index.md')).clauses;
  return clauseJudging(mutant, table, suite);
}

/**
 * The runner's request: judge the mutant at `index` of the catalogue, building it in `work`; or,
 * with `control`, run the unmutated reference in that profile on the scenarios that judge those mutants.
 */
export interface Assignment {
  index: number;
  work: string;
  timeoutScale: number;
  /** The catalogue indices of the mutants judged in that profile. */
  control?: { profile: string; mutants: number[] };
}

/** What the unmutated reference did on the scenarios the mutants are judged by: the scenarios it did not pass. */
export interface Control {
  index: number;
  failing: string[];
}

/**
 * `verdict` is a report line's first word; `detail` says what escaped, errored or went stale.
 * `ERRORED`: a clause's scenarios did not pass, but none failed an assertion (a timeout, a crash, an
 * unexpected error): the mutant is stopped, yet no scenario says what it broke.
 */
export interface Judgement {
  index: number;
  verdict: 'caught' | 'ERRORED' | 'MISSED' | 'STALE';
  detail?: string;
  /** How long the judgement took, building included: the self-check's budget is `npm test`'s. */
  seconds?: number;
}

/** How a mutant is driven: the runtime's module in the kit's process, or its program over stdio. */
interface Means {
  label: string;
  program: 'module' | 'stdio';
  /** Only the runtime's own means: the kit's tools and faults are refused (REFERENCE_MEANS=neutral). */
  neutral: boolean;
}

/**
 * A mutant is driven the way its scenarios can catch it (in process, or over stdio when only a
 * runtime in its own process can crash for real); a mutant of a kind is also driven as a black
 * box over stdio with the runtime's own means only, unless only an optional capability shows it.
 */
function meansOf(mutant: Mutant): Means[] {
  const neutral: Means = { label: 'over stdio, neutral', program: 'stdio', neutral: true };
  if (mutant.ownMeansOnly) return [neutral];
  const own: Means = mutant.stdio
    ? { label: 'over stdio', program: 'stdio', neutral: false }
    : { label: 'in process', program: 'module', neutral: false };
  return mutant.kind && !mutant.needs ? [own, neutral] : [own];
}

async function judge({ index, work, timeoutScale }: Assignment): Promise<Judgement> {
  const mutant = mutants[index]!;
  const ways = meansOf(mutant);
  for (const means of ways) {
    const judgement = await judgeBy(means, mutant, index, work, timeoutScale);
    if (judgement.verdict === 'caught') continue;
    return ways.length > 1 && judgement.detail
      ? { ...judgement, detail: `${means.label}: ${judgement.detail}` }
      : judgement;
  }
  return { index, verdict: 'caught' };
}

async function judgeBy(
  means: Means,
  mutant: Mutant,
  index: number,
  work: string,
  timeoutScale: number,
): Promise<Judgement> {
  const runtime = join(work, `${index}-${means.program}.mjs`);
  try {
    await buildMutantRuntime(mutant, runtime, means.program);
  } catch (error) {
    if (error instanceof StaleMutant) return { index, verdict: 'STALE', detail: error.message };
    throw error;
  }
  // The reference reads its profile when its module loads, which happens once per mutant build.
  process.env.REFERENCE_PROFILE = mutant.profile ?? 'core';
  const program = `"${process.execPath}" "${runtime}"`;
  const judged = judging(mutant);
  const results = await runConformance({
    runtime:
      means.program === 'module'
        ? { module: runtime }
        : { adapter: means.neutral ? `REFERENCE_MEANS=neutral ${program}` : program },
    timeoutScale,
    validate: true,
    // KIT_SELFCHECK_TAGS narrows the scenarios, to see which mutants one scenario alone catches.
    tags: process.env.KIT_SELFCHECK_TAGS ?? judged.tags,
    formats: [],
    failFast: false,
    quiet: true,
    // One failed assertion per clause decides the verdict: its other scenarios need not run.
    settledWhen: (results) => everyClauseCaught(judged, results),
  });
  const { errored, missed } = clauseVerdicts(judged, results);
  if (missed.length > 0) return { index, verdict: 'MISSED', detail: missed.join(', ') };
  return errored.length === 0
    ? { index, verdict: 'caught' }
    : { index, verdict: 'ERRORED', detail: `${errored.join(', ')}: no assertion failed` };
}

/**
 * A mutant is caught only where the reference itself passes: a scenario the reference fails would
 * count every mutant judged by it as caught.
 */
async function control({ index, work, timeoutScale, control }: Assignment): Promise<Control> {
  const runtime = join(work, `control-${control!.profile}.mjs`);
  await buildMutantRuntime(undefined, runtime, 'module');
  process.env.REFERENCE_PROFILE = control!.profile;
  const results = await runConformance({
    runtime: { module: runtime },
    timeoutScale,
    validate: true,
    tags: process.env.KIT_SELFCHECK_TAGS ?? control!.mutants.map((i) => `(${judging(mutants[i]!).tags})`).join(' or '),
    formats: [],
    failFast: false,
    quiet: true,
  });
  return {
    index,
    failing: results.filter((result) => isFailure(result.status)).map((result) => `${result.id} ${result.status}`),
  };
}

process.on('message', (assignment: Assignment) => {
  const started = performance.now();
  const done: Promise<Judgement | Control> = assignment.control
    ? control(assignment)
    : judge(assignment).then((judgement) => ({ ...judgement, seconds: (performance.now() - started) / 1000 }));
  done.then(
    (reply) => process.send!(reply),
    (error: unknown) => {
      process.stderr.write(`selfcheck: ${withCauses(error)}\n`);
      process.exit(70);
    },
  );
});

// The runner has no more work once it lets go of the channel.
process.on('disconnect', () => process.exit(0));

/** An error's stack and those of its causes: Cucumber wraps a hook's error, whose own says what failed. */
function withCauses(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  return error.cause === undefined
    ? (error.stack ?? error.message)
    : `${error.stack}\ncaused by: ${withCauses(error.cause)}`;
}
