import { cpSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';
import { kitPath } from '../harness/kit-root.js';
import { mutants, type Edit, type Mutant } from './reference-mutants.js';

/**
 * Proves the scenarios can fail: runs the scenarios of each mutant's rules against a copy of the
 * reference runtime with that one defect, and requires every listed rule to fail.
 * Run with `npm run selfcheck`.
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

function failingRules(runtime: string, rules: string[], resultsFile: string): string[] {
  const run = spawnSync(
    process.execPath,
    [kitPath('cli', 'bin.js'), 'run', '--runtime', runtime, '--rule', ...rules, '--results', resultsFile],
    { encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' } },
  );
  if (run.status !== 0 && run.status !== 1) throw new Error(`kit run exited ${run.status}:\n${run.stderr}`);
  const outcomes = JSON.parse(readFileSync(resultsFile, 'utf8')).rules as Record<string, string>;
  return Object.keys(outcomes).filter((rule) => outcomes[rule] === 'failed');
}

let escaped = 0;
mutants.forEach((mutant, index) => {
  const runtime = prepare(mutant, index);
  const failed = failingRules(runtime, mutant.breaks, join(work, `${index}.json`));
  const missed = mutant.breaks.filter((rule) => !failed.includes(rule));
  escaped += missed.length > 0 ? 1 : 0;
  const verdict = missed.length === 0 ? 'caught ' : `MISSED (${missed.join(' ')} passed)`;
  process.stdout.write(`${verdict} ${mutant.breaks.join(' ').padEnd(15)} ${mutant.name}\n`);
});
rmSync(work, { recursive: true, force: true });
process.stdout.write(`selfcheck: ${mutants.length - escaped} passed, ${escaped} failed\n`);
process.exitCode = escaped > 0 ? 1 : 0;
