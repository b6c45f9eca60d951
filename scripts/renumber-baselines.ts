/**
 * Brings what every adapter's baseline copies from the suite up to date after scenarios moved: the
 * comment above each entry, and the line of each step a reason quotes where the scenario has that
 * step once. A quoted step the scenario no longer has, or has more than once, is left for a person
 * to decide, and named (the unit tests name it too).
 *
 * Usage: tsx scripts/renumber-baselines.ts
 */
import { existsSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { kitPath } from '../harness/kit-root.js';
import { readKnownFailures } from '../harness/baseline/known-failures.js';
import {
  entryComment,
  quotedSteps,
  staleComments,
  staleQuotes,
  stepLinesNow,
} from '../harness/baseline/stale-entries.js';
import { readScenarios, stableIds } from '../harness/suite/suite-index.js';

const scenarios = readScenarios(kitPath('features'));
const byId = new Map(scenarios.flatMap((scenario) => stableIds(scenario).map((id) => [id, scenario] as const)));
const ENTRY = /^ {2}([^\s#:][^:]*):$/;

for (const runtime of readdirSync(kitPath('adapters'))) {
  const file = kitPath('adapters', runtime, 'known-failures.yaml');
  if (!existsSync(file)) continue;
  const reasons = readKnownFailures(file, new Set(byId.keys())).entries;
  const lines: string[] = [];
  let id: string | undefined;
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    const entry = ENTRY.exec(line)?.[1];
    if (entry && byId.has(entry)) {
      id = entry;
      const comment = `  # ${entryComment(byId.get(entry)!, entry)}`;
      if (/^ {2}# /.test(lines.at(-1) ?? '')) lines[lines.length - 1] = comment;
      else lines.push(comment);
      lines.push(line);
      continue;
    }
    let renumbered = line;
    for (const quote of id ? quotedSteps(reasons.get(id)?.reason ?? '') : []) {
      const now = stepLinesNow(byId.get(id!)!, quote);
      if (now.length === 1) renumbered = renumbered.split(`(line ${quote.line})'`).join(`(line ${now[0]})'`);
    }
    lines.push(renumbered);
  }
  writeFileSync(file, lines.join('\n'));
  const text = readFileSync(file, 'utf8');
  for (const problem of [
    ...staleQuotes(readKnownFailures(file, new Set(byId.keys())), scenarios),
    ...staleComments(file, text, scenarios),
  ])
    process.stdout.write(`${problem}\n`);
}
