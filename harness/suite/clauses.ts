import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { stableIds, type IndexedScenario } from './suite-index.js';

/**
 * A rule's clauses: each part of the rule that a runtime can break on its own, with the scenarios
 * whose assertions would fail if it did. Written in rules/index.md under each rule's line:
 * `  - (a) <what can be broken>. Scenarios: \`id\`, \`id\`.` or `... Scenarios: none.`, with
 * `About: \`<command part>\`.` before `Scenarios:` where the clause, not the whole rule, is about a
 * part of a command (the reserve of a compaction's configuration): a scenario listed under it that
 * reached that part through the adapter's emulation judges the rule neither way.
 */
export interface Clause {
  rule: string;
  /** `a`, `b`, ... in the order written. */
  letter: string;
  text: string;
  /** Stable IDs: a scenario's, an outline's (all its rows) or a row's. */
  scenarios: string[];
  /** The command parts this clause, beyond its rule, is about. */
  about: string[];
  /** Where the clause is written, for a problem to point at. */
  line: number;
}

const RULE_LINE = /^- \*\*([A-Z]{3}-\d{2})\*\* /;
const NAMES = '`[^`]+`(?:, `[^`]+`)*';
const CLAUSE_LINE = new RegExp(
  `^ {2}- \\(([a-z])\\) (.+?)\\.(?: About: (${NAMES})\\.)? Scenarios: (none|${NAMES})\\.$`,
);
const names = (list: string) => list.split(', ').map((name) => name.slice(1, -1));

export interface ClauseIndex {
  clauses: Clause[];
  /** Lines that look like a clause but do not follow its form. */
  malformed: number[];
}

export function readClauses(file: string): ClauseIndex {
  const index: ClauseIndex = { clauses: [], malformed: [] };
  let rule: string | undefined;
  readFileSync(file, 'utf8')
    .split('\n')
    .forEach((line, i) => {
      const ruleLine = RULE_LINE.exec(line);
      if (ruleLine) rule = ruleLine[1];
      else if (!line.startsWith('  - (')) {
        if (!line.startsWith(' ')) rule = undefined;
        return;
      }
      if (ruleLine) return;
      const clause = CLAUSE_LINE.exec(line);
      if (!clause || !rule) {
        index.malformed.push(i + 1);
        return;
      }
      const scenarios = clause[4] === 'none' ? [] : names(clause[4]!);
      const about = clause[3] === undefined ? [] : names(clause[3]);
      index.clauses.push({ rule, letter: clause[1]!, text: clause[2]!, scenarios, about, line: i + 1 });
    });
  return index;
}

/**
 * Problems of the clause table: a malformed line, letters out of order, an ID no scenario has, a
 * rule with no clause, a scenario tagged with a rule none of whose clauses it checks (its pass
 * would claim the rule on a check that could not fail a runtime breaking it), and a clause listing
 * a scenario that neither carries the rule's tag nor names the rule in a step's `# checks:` (its
 * check would never be put down to the rule: its pass credits it nothing, its failure charges
 * another rule).
 */
export function lintClauses(index: ClauseIndex, rules: readonly string[], scenarios: IndexedScenario[]): string[] {
  const where = (line: number) => `rules/index.md:${line}`;
  const problems = index.malformed.map(
    (line) =>
      `${where(line)}: a clause reads "  - (a) <text>. Scenarios: \`<id>\`, \`<id>\`." or "... Scenarios: none."`,
  );
  const byId = new Map(scenarios.flatMap((scenario) => stableIds(scenario).map((id) => [id, scenario] as const)));
  const letters = new Map<string, number>();
  for (const clause of index.clauses) {
    const expected = String.fromCharCode(97 + (letters.get(clause.rule) ?? 0));
    letters.set(clause.rule, (letters.get(clause.rule) ?? 0) + 1);
    if (clause.letter !== expected)
      problems.push(`${where(clause.line)}: ${clause.rule}'s clause (${clause.letter}) should be (${expected})`);
    for (const id of clause.scenarios) {
      const scenario = byId.get(id);
      if (!scenario) problems.push(`${where(clause.line)}: no scenario or example row has the ID ${id}`);
      else if (!checks(scenario, clause.rule))
        problems.push(
          `${where(clause.line)}: ${clause.rule}'s clause (${clause.letter}) lists ${id}, which neither carries @${clause.rule} nor names ${clause.rule} in a step's \`# checks:\`: name ${clause.rule} above the step whose assertion checks the clause, or take ${id} off the clause`,
        );
    }
  }
  for (const rule of rules) {
    if (!letters.has(rule)) problems.push(`rules/index.md: ${rule} lists no clause`);
  }
  for (const scenario of scenarios) {
    const ids = stableIds(scenario);
    const listed = (rule: string) =>
      !letters.has(rule) ||
      index.clauses.some((clause) => clause.rule === rule && clause.scenarios.some((id) => ids.includes(id)));
    for (const rule of scenario.rules.filter((rule) => !listed(rule)))
      problems.push(
        `${scenario.file}:${scenario.line}: @${rule} is on a scenario no clause of ${rule} lists (rules/index.md): list it under the clause it checks, or take the tag off`,
      );
    // A check charged to a rule for a scenario none of its clauses lists would fail the rule on a
    // clause the table says the scenario does not judge ("failed, 0 of 2 clauses judged").
    for (const step of scenario.steps)
      for (const rule of (step.named ?? []).filter((rule) => !scenario.rules.includes(rule) && !listed(rule)))
        problems.push(
          `${scenario.file}:${step.line}: \`# checks: ${rule}\` names a rule no clause of which lists ${ids[0]} (rules/index.md): list it under the clause the step checks, or take ${rule} off the step`,
        );
  }
  return problems;
}

/** Whether a scenario's outcome can be put down to a rule: it carries the rule's tag, or a step of it names the rule. */
function checks(scenario: IndexedScenario, rule: string): boolean {
  return scenario.rules.includes(rule) || scenario.steps.some((step) => step.named?.includes(rule));
}

/** Whether a scenario result stands for a stable ID a clause names: its own, or its outline's. */
export function resultNamed(id: string, result: { id: string; outline?: string }): boolean {
  return result.id === id || result.outline === id;
}

/**
 * The clauses the self-check's mutants name (`clauses: ['INB-01 (a)']` in `dir`'s files) that the
 * clause table does not have: such a mutant would be judged by no scenario. The files are read as
 * text, not loaded: the kit as packed has no self-check, and then there is nothing to check.
 */
export function lintMutantClauses(index: ClauseIndex, dir: string): string[] {
  if (!existsSync(dir)) return [];
  const known = new Set(index.clauses.map((clause) => `${clause.rule} (${clause.letter})`));
  return readdirSync(dir)
    .filter((name) => name.endsWith('.ts'))
    .sort()
    .flatMap((name) => {
      const lines = readFileSync(join(dir, name), 'utf8').split('\n');
      return lines.flatMap((line, i) =>
        [...line.matchAll(/\bclauses: \[([^\]]*)\]/g)].flatMap((list) =>
          [...list[1]!.matchAll(/'([^']*)'/g)]
            .map((quoted) => quoted[1]!)
            .filter((clause) => !known.has(clause))
            .map(
              (clause) =>
                `${join('selfcheck', 'mutants', name)}:${i + 1}: a mutant names "${clause}", which is no clause of rules/index.md (written "INB-01 (a)")`,
            ),
        ),
      );
    });
}
