import { readFileSync, readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { CAPABILITIES, isCapability, neededCapabilities } from '../protocol/capabilities.js';
import parseTagExpression from '@cucumber/tag-expressions';
import { rowId, rowKey } from './scenario-id.js';
import { checksNamed, type CheckingStep, type StepKind, unattributedChecks, unnamedFacts } from './step-checks.js';

/** One scenario as its tags describe it, with where it stands. */
export interface IndexedScenario {
  file: string;
  line: number;
  name: string;
  ids: string[];
  rules: string[];
  area: string | undefined;
  /** The optional capabilities its `@needs:` tags name. */
  needs: string[];
  /** Its tags and its feature's, as a tag expression sees them. */
  tags: string[];
  /** An outline's example rows: the first cell of each, which names the row (scenario-id.ts), and its Examples' tags. */
  rows: { firstCell: string; line: number; tags: string[] }[];
  /** Its own steps (not its Background's): their kind, line, text and the rules a comment says each checks. */
  steps: (CheckingStep & { line: number; text: string })[];
}

/** Whether a Cucumber tag expression selects the scenario, or one of its example rows. */
export function selectedBy(expression: string, scenario: IndexedScenario): boolean {
  const node = parseTagExpression(expression);
  return scenario.rows.length === 0
    ? node.evaluate(scenario.tags)
    : scenario.rows.some((row) => node.evaluate([...scenario.tags, ...row.tags]));
}

/** Every stable ID of a scenario: its `@id:`, and each example row's own when it is an outline. */
export function stableIds(scenario: IndexedScenario): string[] {
  const [outline] = scenario.ids;
  return [...scenario.ids, ...(outline ? scenario.rows.map((row) => rowId(outline, row.firstCell)) : [])];
}

const RULE_TAG = /^@([A-Z]{3}-\d{2})$/;
const ID_TAG = /^@id:(.+)$/;
const AREA_TAG = /^@area:(.+)$/;

/** Reads the rule IDs of the kit's rule index: lines like `- **INB-01** ...`. */
export function readRuleIndex(file: string): string[] {
  return readRuleEntries(file).map((rule) => rule.id);
}

/** An indexed rule: its ID, its area's heading and its statement in the kit's words. */
export interface RuleEntry {
  id: string;
  area: string;
  statement: string;
}

export function readRuleEntries(file: string): RuleEntry[] {
  let area = '';
  return readFileSync(file, 'utf8')
    .split('\n')
    .flatMap((line) => {
      const heading = /^## (.+)$/.exec(line);
      if (heading) area = heading[1]!;
      const rule = /^- \*\*([A-Z]{3}-\d{2})\*\* (.*)$/.exec(line);
      return rule ? [{ id: rule[1]!, area, statement: rule[2]! }] : [];
    });
}

/** Reads the tags of every scenario under `dir` without running anything. */
export function readScenarios(dir: string): IndexedScenario[] {
  return featureFiles(dir).flatMap((file) => scenariosOf(relative(process.cwd(), file), readFileSync(file, 'utf8')));
}

function featureFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith('.feature'))
    .map((entry) => join(entry.parentPath, entry.name))
    .sort();
}

function scenariosOf(file: string, text: string): IndexedScenario[] {
  const scenarios: IndexedScenario[] = [];
  let featureTags: string[] = [];
  let pending: string[] = [];
  // Inside an Examples table: before its header row, then on its rows.
  let examples: 'header' | 'rows' | undefined;
  let examplesTags: string[] = [];
  // The steps of the scenario being read (none in a Background), the kind an And continues, and a
  // `# checks:` comment waiting for the step below it.
  let steps: IndexedScenario['steps'] | undefined;
  let kind: StepKind = 'Unknown';
  let named: ReturnType<typeof checksNamed>;
  let inDocString = false;
  text.split('\n').forEach((raw, i) => {
    const line = raw.trim();
    if (line.startsWith('"""') || line.startsWith('```')) inDocString = !inDocString;
    if (inDocString || line.startsWith('"""') || line.startsWith('```')) return;
    const comment = checksNamed(line);
    const step = /^(Given|When|Then|And|But|\*) /.exec(line)?.[1];
    if (step && steps) {
      kind = STEP_KINDS[step] ?? kind;
      steps.push({
        kind,
        line: i + 1,
        text: line.slice(step.length + 1),
        ...(named ? { named: named.rules, ...(named.independent ? { independent: true } : {}) } : {}),
      });
    }
    named = comment;
    if (/^Background:/.test(line)) steps = undefined;
    if (examples && line.startsWith('|')) {
      if (examples === 'rows')
        scenarios.at(-1)!.rows.push({ firstCell: firstCell(line), line: i + 1, tags: examplesTags });
      examples = 'rows';
      return;
    }
    if (line !== '' && !line.startsWith('#')) examples = undefined;
    if (line.startsWith('@')) pending.push(...line.split(/\s+/));
    else if (line.startsWith('Feature:')) [featureTags, pending] = [pending, []];
    else if (/^Scenario( Outline)?:/.test(line)) {
      const tags = [...featureTags, ...pending];
      pending = [];
      scenarios.push({
        file,
        line: i + 1,
        name: line.replace(/^Scenario( Outline)?:\s*/, ''),
        ids: capture(tags, ID_TAG),
        rules: capture(tags, RULE_TAG),
        area: capture(tags, AREA_TAG)[0],
        needs: neededCapabilities(tags),
        tags,
        rows: [],
        steps: [],
      });
      steps = scenarios.at(-1)!.steps;
      kind = 'Unknown';
    } else if (/^(Examples|Scenarios):/.test(line)) {
      [examplesTags, pending] = [pending, []];
      examples = 'header';
    }
  });
  return scenarios;
}

const STEP_KINDS: Record<string, StepKind> = { Given: 'Context', When: 'Action', Then: 'Outcome' };

/** A table row's first cell, unescaped as Gherkin reads it. */
function firstCell(row: string): string {
  const cell = /^\|((?:[^|\\]|\\.)*)\|/.exec(row)?.[1] ?? '';
  return cell.replace(/\\(.)/g, (_, c: string) => (c === 'n' ? '\n' : c)).trim();
}

function capture(tags: string[], pattern: RegExp): string[] {
  return tags.flatMap((tag) => {
    const match = pattern.exec(tag);
    return match ? [match[1]!] : [];
  });
}

/** Problems that make the suite untrustworthy, each naming the file and line to fix. */
export function lintSuite(rules: string[], scenarios: IndexedScenario[]): string[] {
  const problems: string[] = [];
  const known = new Set(rules);
  const covered = new Set<string>();
  const seenIds = new Map<string, string>();
  for (const scenario of scenarios) {
    const where = `${scenario.file}:${scenario.line}`;
    if (scenario.ids.length !== 1)
      problems.push(`${where}: a scenario needs exactly one @id: tag (has ${scenario.ids.length})`);
    const rowKeys = new Map<string, number>();
    for (const row of scenario.rows) {
      const key = rowKey(row.firstCell);
      const same = rowKeys.get(key);
      if (key === '')
        problems.push(
          `${scenario.file}:${row.line}: the row's first cell names it in its ID (${scenario.ids[0]}/<first cell>): give it letters or digits`,
        );
      else if (same !== undefined)
        problems.push(
          `${scenario.file}:${row.line}: the row's ID ${scenario.ids[0]}/${key} is already the ID of the row at line ${same}: make the first cells differ`,
        );
      else rowKeys.set(key, row.line);
    }
    for (const id of new Set(stableIds(scenario))) {
      const first = seenIds.get(id);
      if (first) problems.push(`${where}: @id:${id} is already used at ${first}`);
      else seenIds.set(id, where);
    }
    if (scenario.rules.length === 0) problems.push(`${where}: the scenario names no rule`);
    if (!scenario.area) problems.push(`${where}: the feature has no @area: tag`);
    for (const need of scenario.needs) {
      if (!isCapability(need))
        problems.push(`${where}: @needs:${need} names no optional capability (${CAPABILITIES.join(', ')})`);
    }
    for (const { line, problem } of [
      ...unattributedChecks(scenario.steps, scenario.rules),
      ...unnamedFacts(scenario.steps, scenario.rules),
    ])
      problems.push(`${scenario.file}:${line ?? scenario.line}: ${problem}`);
    for (const rule of scenario.rules) {
      if (known.has(rule)) covered.add(rule);
      else problems.push(`${where}: @${rule} is not in the rule index`);
    }
  }
  for (const rule of rules) if (!covered.has(rule)) problems.push(`rules/index.md: ${rule} has no scenario`);
  return problems;
}
