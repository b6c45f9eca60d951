import { fork, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { availableParallelism } from 'node:os';
import { kitPath } from '../harness/kit-root.js';
import { suiteSettings } from '../harness/suite/suite-settings.js';
import { mutantKinds, rulesBroken, type Mutant } from './mutants/index.js';
import { elsewhere, mutants, mutantsByArea } from './catalogue.js';
import type { Assignment, Control, Judgement } from './mutant-worker.js';
import { readClauses } from '../harness/suite/clauses.js';
import { clauseCountLines } from './clause-counts.js';

/**
 * Proves the scenarios can fail: runs the scenarios the clause table lists under each clause a
 * mutant names against a build of the reference runtime with that one defect, and requires an
 * assertion of each clause's scenarios to fail (clause-judging.ts).
 * Run with `npm run selfcheck`, or `npm run selfcheck -- <rule IDs>` for some rules only;
 * `npm run selfcheck -- --clauses` only counts the mutants naming each clause of rules/index.md;
 * `KIT_MUTANTS=file.ts npm run selfcheck` judges the mutants that file exports instead.
 * `KIT_SELFCHECK_TAGS='@id:…'` runs only those scenarios, to see which mutants a new scenario alone catches.
 * Mutants are judged in parallel by long-lived workers (KIT_SELFCHECK_JOBS of them, one per core
 * by default), each loading Cucumber and the steps once; lines are printed in catalogue order.
 */

const work = kitPath('.kit', 'mutants');
const settings = suiteSettings();
const { timeoutScale } = settings;
/** Where the mutants' scenarios run: the kit keeps the directories of failed scenarios, and a mutant fails some. */
const scenarioRoot = mkdtempSync(join(settings.scenarioRoot, 'kit-selfcheck-'));

// `npm run selfcheck -- --clauses` prints how many mutants name each clause, and judges none.
const table = readClauses(kitPath('rules', 'index.md')).clauses;
if (process.argv.includes('--clauses')) {
  process.stdout.write(clauseCountLines(table, mutants).join(''));
  process.exit(0);
}
// `npm run selfcheck -- INB-07 RUN-04` checks only the mutants of those rules.
const only = process.argv.slice(2);
const selected = mutants
  .map((mutant, index) => ({ mutant, index }))
  .filter(({ mutant }) => only.length === 0 || rulesBroken(mutant).some((rule) => only.includes(rule)));

rmSync(work, { recursive: true, force: true });
mkdirSync(work, { recursive: true });
// Run on some rules alone, the reference itself is run first on their scenarios: the full run has
// the conformance run beside it (npm test), which a subset has not.
const failing = only.length > 0 ? await controls() : [];
if (failing.length > 0) {
  rmSync(scenarioRoot, { recursive: true, force: true });
  process.stdout.write(
    `selfcheck: the reference itself does not pass ${failing.join(', ')}: a mutant judged by it would count as caught\n`,
  );
  process.exit(1);
}
const judgements = await judgeAll(selected.map(({ index }) => index)).finally(() =>
  rmSync(scenarioRoot, { recursive: true, force: true }),
);
rmSync(work, { recursive: true, force: true });

const areaOf = new Map(
  Object.entries(mutantsByArea).flatMap(([area, list]) => list.map((mutant) => [mutant, area] as const)),
);
const perArea = new Map<string, { passed: number; failed: number }>();
let escaped = 0;
let unasserted = 0;
for (const { mutant, index } of selected) {
  const judgement = judgements.get(index)!;
  unasserted += judgement.verdict === 'ERRORED' ? 1 : 0;
  const passed = judgement.verdict === 'caught' || judgement.verdict === 'ERRORED';
  escaped += passed ? 0 : 1;
  const area = areaOf.get(mutant)!;
  const count = perArea.get(area) ?? { passed: 0, failed: 0 };
  count[passed ? 'passed' : 'failed'] += 1;
  perArea.set(area, count);
}
// Areas in the catalogue's order, which is the rule catalogue's.
const areas = Object.keys(mutantsByArea).flatMap((area) =>
  perArea.has(area) ? [[area, perArea.get(area)!] as const] : [],
);
const width = Math.max(...areas.map(([area]) => area.length));
process.stdout.write(
  areas.map(([area, count]) => `  ${area.padEnd(width)}  ${count.passed} passed, ${count.failed} failed\n`).join(''),
);
process.stdout.write(kindLines().join(''));
const asserted = selected.length - escaped - unasserted;
process.stdout.write(
  `self-check: ${selected.length} mutants, ${asserted} caught by an assertion` +
    (unasserted ? `, ${unasserted} stopped only by an error (a timeout, a crash, an unexpected error)` : '') +
    '\n',
);
process.stdout.write(slowestLines().join(''));
// The clauses of the whole table, so only where the kit's whole catalogue was judged.
if (only.length === 0 && !elsewhere) process.stdout.write(clauseCountLines(table, mutants).join(''));
process.stdout.write(`selfcheck: ${selected.length - escaped} passed, ${escaped} failed\n`);
process.exitCode = escaped > 0 ? 1 : 0;

/**
 * One line per class of wrong implementation: how many mutants stand for it, in how many modules
 * of the reference, and how many were caught by an assertion in process and as a black box.
 */
function kindLines(): string[] {
  const width = Math.max(...mutantKinds.map((kind) => kind.length));
  return mutantKinds.flatMap((kind) => {
    const ofKind = selected.filter(({ mutant }) => mutant.kind === kind);
    if (ofKind.length === 0 && (only.length > 0 || elsewhere)) return [];
    const modules = new Set(ofKind.map(({ mutant }) => mutant.file)).size;
    const caught = ofKind.filter(({ index }) => judgements.get(index)!.verdict === 'caught').length;
    return [`  kind ${kind.padEnd(width)}  ${ofKind.length} mutants in ${modules} modules, ${caught} caught\n`];
  });
}

/** The mutants that cost the most, where a cheaper scenario would keep `npm test` within its time. */
function slowestLines(): string[] {
  const timed = selected.map(({ mutant, index }) => ({ mutant, seconds: judgements.get(index)!.seconds ?? 0 }));
  const total = timed.reduce((sum, { seconds }) => sum + seconds, 0);
  const slowest = timed.sort((a, b) => b.seconds - a.seconds).slice(0, 5);
  return [
    `time spent judging: ${total.toFixed(0)} s summed over the workers; slowest mutants:\n`,
    ...slowest.map(({ mutant, seconds }) => `  ${seconds.toFixed(1).padStart(5)} s  ${mutant.name}\n`),
  ];
}

function line(mutant: Mutant, judgement: Judgement): string {
  const verdict = judgement.verdict === 'caught' ? 'caught ' : `${judgement.verdict} (${judgement.detail})`;
  return `${verdict} ${rulesBroken(mutant).join(' ').padEnd(15)} ${mutant.name}\n`;
}

/** The scenarios the unmutated reference does not pass, in every profile the selected mutants run in. */
async function controls(): Promise<string[]> {
  const byProfile = new Map<string, number[]>();
  for (const { mutant, index } of selected) {
    const profile = mutant.profile ?? 'core';
    byProfile.set(profile, [...(byProfile.get(profile) ?? []), index]);
  }
  const worker = forkWorker();
  const failing: string[] = [];
  try {
    for (const [profile, indices] of byProfile) {
      const reply = new Promise<Control>((resolve) => worker.once('message', resolve));
      worker.send({ index: -1, work, timeoutScale, control: { profile, mutants: indices } } satisfies Assignment);
      failing.push(...(await reply).failing.map((scenario) => `${scenario} (${profile})`));
    }
  } finally {
    worker.disconnect();
  }
  return failing;
}

function forkWorker(): ChildProcess {
  return fork(kitPath('selfcheck', 'mutant-worker.ts'), [], {
    execArgv: ['--import', 'tsx'],
    env: { ...process.env, NO_COLOR: '1', KIT_TMPDIR: scenarioRoot },
    // Mutants write diagnostics as they break; only a worker's own failure is worth showing.
    stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
  });
}

/** Judges every mutant in `queue`, printing each line as soon as those before it are printed. */
function judgeAll(queue: number[]): Promise<Map<number, Judgement>> {
  const order = [...queue];
  const judgements = new Map<number, Judgement>();
  let printed = 0;
  if (queue.length === 0) return Promise.resolve(judgements);
  const jobs = Math.max(1, Math.min(Number(process.env.KIT_SELFCHECK_JOBS) || availableParallelism(), queue.length));
  return new Promise((resolve, reject) => {
    const settle = (judgement: Judgement) => {
      judgements.set(judgement.index, judgement);
      while (printed < order.length && judgements.has(order[printed]!)) {
        const index = order[printed++]!;
        process.stdout.write(line(mutants[index]!, judgements.get(index)!));
      }
      if (judgements.size === order.length) resolve(judgements);
    };
    const startWorker = () => {
      const worker = forkWorker();
      let stderr = '';
      worker.stderr!.on('data', (chunk: Buffer) => (stderr = (stderr + chunk.toString('utf8')).slice(-4096)));
      let current: number | undefined;
      const next = () => {
        current = queue.shift();
        if (current === undefined) worker.disconnect();
        else worker.send({ index: current, work, timeoutScale } satisfies Assignment);
      };
      worker.on('message', (judgement: Judgement) => {
        settle(judgement);
        next();
      });
      worker.on('close', (code, signal) => {
        if (current === undefined) return;
        reject(
          new Error(
            `the self-check worker judging "${mutants[current]!.name}" exited (${signal ?? `code ${code}`}):\n${stderr}`,
          ),
        );
      });
      next();
    };
    for (let i = 0; i < jobs; i++) startWorker();
  });
}
