import { existsSync, mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, relative } from 'node:path';
import { pathToFileURL } from 'node:url';
import { kitPath } from '../harness/kit-root.js';
import { readRuleEntries } from '../harness/suite/suite-index.js';
import {
  dialectDifferences,
  field,
  forkDifferences,
  fieldTable,
  withFieldTable,
  type Field,
  type FieldRuntime,
} from '../harness/report/field-comparison.js';
import { fieldPage } from '../harness/report/field-page.js';
import { replaceFile } from './replace-file.js';
import { judgementFolder, type JudgedRuntime } from '../harness/report/runtime-report.js';
import { judgedDialects, namedDialect, readJudgeSettings } from './judge-settings.js';

/**
 * `npm run compare`: the field at a glance, from every judged runtime's adapters/<runtime>/judged.json
 * (each judge writes its own and then calls this): docs/field/index.html, and its markdown twin in
 * the README between the field-comparison markers.
 */
export const FIELD_PAGE = kitPath('docs', 'field', 'index.html');

export function writeFieldComparison(): void {
  const comparison = fieldOfJudgements();
  mkdirSync(dirname(FIELD_PAGE), { recursive: true });
  const depth = relative(kitPath(), dirname(FIELD_PAGE)).split('/').length;
  replaceFile(FIELD_PAGE, fieldPage(comparison, depth));
  const readme = kitPath('README.md');
  replaceFile(readme, withFieldTable(readFileSync(readme, 'utf8'), fieldTable(comparison)));
  process.stdout.write(
    `field comparison: ${comparison.rows.length} rules × ${comparison.runtimes.length} runtimes in ${relative(kitPath(), FIELD_PAGE)} and the README\n`,
  );
  for (const { fork, parent, rules } of forkDifferences(comparison))
    process.stdout.write(
      `${fork}: differs from ${parent}, which it was forked from, on ${rules.length} rule(s)${rules.length ? `: ${rules.join(' ')}` : ''}\n`,
    );
  for (const { runtime, rule, outcomes } of dialectDifferences(comparison))
    process.stdout.write(
      `${runtime}: ${rule} differs by dialect: ${Object.entries(outcomes)
        .map(([dialect, outcome]) => `${outcome} in ${dialect}`)
        .join(', ')}\n`,
    );
}

/** The field as the page shows it: every judgement, with what its judge.json says of it, in column order. */
export function fieldOfJudgements(): Field {
  const judged = everyJudgement().map((runtime): FieldRuntime => {
    const { tags: only, forkOf } = readJudgeSettings(runtime.runtime);
    return { ...runtime, ...(only ? { only } : {}), ...(forkOf ? { forkOf } : {}) };
  });
  return field(judged, readRuleEntries(kitPath('rules', 'index.md')));
}

/**
 * Every judgement's judged.json, in its judgementFolder: one per runtime, or per dialect of a runtime
 * judged in several. A folder of `adapters/` with no judge.json judges no runtime (code adapters share).
 */
export function everyJudgement(): JudgedRuntime[] {
  const runtimes = readdirSync(kitPath('adapters')).filter((folder) =>
    existsSync(kitPath('adapters', folder, 'judge.json')),
  );
  return runtimes.flatMap((runtime) => {
    const settings = readJudgeSettings(runtime);
    return judgedDialects(settings)
      .map((dialect) => kitPath(judgementFolder({ runtime, dialect: namedDialect(settings, dialect) }), 'judged.json'))
      .filter((file) => existsSync(file))
      .map((file) => JSON.parse(readFileSync(file, 'utf8')) as JudgedRuntime);
  });
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) writeFieldComparison();
