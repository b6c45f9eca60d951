import { cpSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';
import { kitPath } from '../harness/kit-root.js';
import { mutants, type Edit, type Mutant } from './mutants/index.js';

/**
 * Proves the scenarios can fail: runs the scenarios of each mutant's rules against a copy of the
 * reference runtime with that one defect, and requires every listed rule to fail.
 * Run with `npm run selfcheck`, or `npm run selfcheck -- <rule IDs>` for some rules only.
 */

const work = kitPath('.kit', 'mutants');

function prepare(mutant: Mutant, index: number): string {
  const dir = join(work, String(index));
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  cpSync(kitPath('reference'), join(dir, 'reference'), { recursive: true });
  for (const edit of [mutant, ...(mutant.also ?? [])]) apply(join(dir, 'reference'), edit, mutant.name);
  return join(dir, 'reference', 'adapter', 'conformance-adapter.ts');
}

function apply(root: string, edit: Edit, name: string): void {
  const file = join(root, edit.file);
  const source = readFileSync(file, 'utf8');
  const occurrences = source.split(edit.find).length - 1;
  if (occurrences !== 1) throw new Error(`mutant "${name}": expected its text once in reference/${edit.file}, found ${occurrences}`);
  writeFileSync(file, source.replace(edit.find, () => edit.replace));
}

function failingRules(mutant: Mutant, runtime: string, resultsFile: string): string[] {
  const run = spawnSync(
    process.execPath,
    [kitPath('cli', 'bin.js'), 'run', '--runtime', runtime, '--rule', ...mutant.breaks, '--results', resultsFile],
    { encoding: 'utf8', env: { ...process.env, NO_COLOR: '1', REFERENCE_PROFILE: mutant.profile ?? 'core' } },
  );
  if (run.status !== 0 && run.status !== 1) throw new Error(`kit run exited ${run.status}:\n${run.stderr}`);
  const outcomes = JSON.parse(readFileSync(resultsFile, 'utf8')).rules as Record<string, string>;
  return Object.keys(outcomes).filter((rule) => outcomes[rule] === 'failed');
}

// `npm run selfcheck -- INB-07 RUN-04` checks only the mutants of those rules.
const only = process.argv.slice(2);
const selected = mutants.filter((mutant) => only.length === 0 || mutant.breaks.some((rule) => only.includes(rule)));

let escaped = 0;
selected.forEach((mutant, index) => {
  const verdict = judge(mutant, index);
  escaped += verdict === 'caught ' ? 0 : 1;
  process.stdout.write(`${verdict} ${mutant.breaks.join(' ').padEnd(15)} ${mutant.name}\n`);
});
rmSync(work, { recursive: true, force: true });
process.stdout.write(`selfcheck: ${selected.length - escaped} passed, ${escaped} failed\n`);
process.exitCode = escaped > 0 ? 1 : 0;

/** A mutant whose text the reference no longer has is reported, not skipped: the list must keep up. */
function judge(mutant: Mutant, index: number): string {
  let runtime: string;
  try {
    runtime = prepare(mutant, index);
  } catch (error) {
    return `STALE (${error instanceof Error ? error.message : error})`;
  }
  const failed = failingRules(mutant, runtime, join(work, `${index}.json`));
  const missed = mutant.breaks.filter((rule) => !failed.includes(rule));
  return missed.length === 0 ? 'caught ' : `MISSED (${missed.join(' ')} passed)`;
}
