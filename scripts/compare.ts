import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, relative } from 'node:path';
import { pathToFileURL } from 'node:url';
import { kitPath } from '../harness/kit-root.js';
import { readRuleEntries } from '../harness/suite/suite-index.js';
import { field, fieldTable, withFieldTable, type FieldRuntime } from '../harness/report/field-comparison.js';
import { fieldPage } from '../harness/report/field-page.js';
import type { JudgedRuntime } from '../harness/report/runtime-report.js';
import { readJudgeSettings } from './judge-settings.js';

/**
 * `npm run compare`: the field at a glance, from every judged runtime's adapters/<runtime>/judged.json
 * (each judge writes its own and then calls this): docs/field/index.html, and its markdown twin in
 * the README between the field-comparison markers.
 */
export const FIELD_PAGE = kitPath('docs', 'field', 'index.html');

export function writeFieldComparison(): void {
  const judged = readdirSync(kitPath('adapters'))
    .filter((name) => existsSync(kitPath('adapters', name, 'judged.json')))
    .map((name): FieldRuntime => {
      const runtime = JSON.parse(readFileSync(kitPath('adapters', name, 'judged.json'), 'utf8')) as JudgedRuntime;
      const only = readJudgeSettings(name).tags;
      return only ? { ...runtime, only } : runtime;
    });
  const comparison = field(judged, readRuleEntries(kitPath('rules', 'index.md')));
  mkdirSync(dirname(FIELD_PAGE), { recursive: true });
  const depth = relative(kitPath(), dirname(FIELD_PAGE)).split('/').length;
  writeFileSync(FIELD_PAGE, fieldPage(comparison, depth));
  const readme = kitPath('README.md');
  writeFileSync(readme, withFieldTable(readFileSync(readme, 'utf8'), fieldTable(comparison)));
  process.stdout.write(
    `field comparison: ${comparison.rows.length} rules × ${comparison.runtimes.length} runtimes in ${relative(kitPath(), FIELD_PAGE)} and the README\n`,
  );
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) writeFieldComparison();
