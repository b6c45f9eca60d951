import { failureShown, type ScenarioResult } from './scenario-results.js';
import { failureLines } from './summary.js';
import { clipped, requestExcerpt } from '../projection/render.js';
import { coverageOf, outcomeFor, rulesByReason, rulesOf, verdictPercent, type Coverage } from './coverage.js';
import { isVerdict, type Outcome } from './outcome.js';
import { chargedRules, listedUnder, type KnownFailure } from '../baseline/known-failures.js';
import { withMarkedSection } from './marked-section.js';
import { ruleStandings, type RuleStanding } from './rule-standings.js';
import { timeBreakdown } from './time-breakdown.js';
import { readClauses, type Clause } from '../suite/clauses.js';
import { kitPath } from '../kit-root.js';
import { clauseJudged, shareText } from './judged-share.js';

/**
 * The public report of a judged runtime, generated from the `--results` JSON of its run: a page
 * per runtime (badge line, rule table, each failing rule with its evidence) and one row of the
 * README's "Runtimes judged" table. Nothing in either is typed by hand.
 */

/** What `kit run --results` writes (the field read here: every rule's verdict follows from it). */
export interface ResultsDocument {
  scenarios: ScenarioResult[];
}

/** One judged runtime: the README row and its column of the field comparison, kept beside its adapter. */
export interface JudgedRuntime {
  runtime: string;
  /** The provider dialect of this judgement, for a runtime judged in several (one judgement each). */
  dialect?: string;
  version: string;
  date: string;
  counts: RuleCounts;
  rules: Record<string, RuleStanding>;
}

/** A judgement's name: the runtime, with its dialect where it is judged in several. */
export function judgementName(judged: Pick<JudgedRuntime, 'runtime' | 'dialect'>): string {
  return judged.dialect ? `${judged.runtime} (${judged.dialect})` : judged.runtime;
}

/**
 * The folder of a judgement's REPORT.md and judged.json, from the kit's root: the adapter's, or a
 * folder per dialect in it for a runtime judged in several; its results are under `reports/` the same way.
 */
export function judgementFolder(judged: Pick<JudgedRuntime, 'runtime' | 'dialect'>): string {
  return judged.dialect ? `adapters/${judged.runtime}/${judged.dialect}` : `adapters/${judged.runtime}`;
}

/** How many rules had each outcome. */
export interface RuleCounts {
  passed: number;
  failed: number;
  notImplemented: number;
  notApplicable: number;
  errored: number;
  notJudged: number;
}

/** The rule table's order: what needs reading first. */
const OUTCOME_ORDER: readonly Outcome[] = [
  'failed',
  'not implemented',
  'errored',
  'not judged',
  'passed',
  'not applicable',
];

export function ruleCounts(coverage: Coverage): RuleCounts {
  const count = (outcome: Outcome) => Object.values(coverage.outcomes).filter((o) => o === outcome).length;
  return {
    passed: count('passed'),
    failed: count('failed'),
    notImplemented: count('not implemented'),
    notApplicable: count('not applicable'),
    errored: count('errored'),
    notJudged: count('not judged'),
  };
}

/** The page and the README row of one run. */
export function judgedRuntime(
  runtime: string,
  version: string,
  date: string,
  document: ResultsDocument,
  known: ReadonlyMap<string, KnownFailure>,
  clauses: readonly Clause[] = catalogueClauses(),
): JudgedRuntime {
  const scenarios = withIntermittentFailures(document.scenarios, known);
  return {
    runtime,
    version,
    date,
    counts: ruleCounts(coverageOf(scenarios)),
    rules: ruleStandings(scenarios, known, clauses),
  };
}

function catalogueClauses(): Clause[] {
  return readClauses(kitPath('rules', 'index.md')).clauses;
}

/**
 * This run gave no failure a listed intermittent one could stand for: it passed, or saw nothing to
 * judge. An errored run is the adapter's or the kit's fault, no sign of the runtime's.
 */
const MISSED_FAILURE = new Set(['passed', 'not judged']);

/** The outcome this run gave a scenario whose intermittent failure stands for it. */
const ranAs = new WeakMap<ScenarioResult, string>();

function standsFailed(s: ScenarioResult, charged: string[]): ScenarioResult {
  const failed: ScenarioResult = { ...s, status: 'failed', charged, message: undefined, step: undefined };
  ranAs.set(failed, s.status);
  return failed;
}

/**
 * A published verdict is about the runtime, not one run: where the baseline lists a scenario's
 * failure as intermittent and this run passed it or judged nothing (the runtime's extra turns
 * outlasting a settle, say), the failure seen on other runs stands beside it, charged to the rules
 * its reason names; the scenario's other checks keep their outcome.
 * A listed failure found after every check held (an unscripted request) is charged the same way,
 * and the scenario's rules, whose checks all held, pass.
 */
function withIntermittentFailures(
  scenarios: readonly ScenarioResult[],
  known: ReadonlyMap<string, KnownFailure>,
): ScenarioResult[] {
  // Keyed by the entry: an entry naming an outline stands for all its rows.
  const passedAnyway = new Map<string, ScenarioResult>();
  const keyOf = (s: ScenarioResult) => listedUnder(known, s)?.key ?? s.id;
  for (const s of scenarios) {
    const entry = listedUnder(known, s)?.entry;
    if (MISSED_FAILURE.has(s.status) && entry?.intermittent && !passedAnyway.has(keyOf(s)))
      passedAnyway.set(keyOf(s), standsFailed(s, chargedRules(entry.reason)));
  }
  const failedElsewhere = new Set(scenarios.filter((s) => s.status === 'failed').map(keyOf));
  const charged = scenarios.map((s) => {
    const entry = listedUnder(known, s)?.entry;
    if (s.status !== 'failed' || s.step !== undefined || !entry) return s;
    const rules = chargedRules(entry.reason);
    return { ...s, charged: rules, held: s.rules.filter((rule) => !rules.includes(rule)) };
  });
  return [...charged, ...[...passedAnyway].filter(([key]) => !failedElsewhere.has(key)).map(([, s]) => s)];
}

/** A static shields.io badge: rules passed of the rules that got a verdict. */
export function badgeLine(judged: JudgedRuntime): string {
  const { passed, failed, notImplemented, notApplicable } = judged.counts;
  const judgedRules = passed + failed + notImplemented;
  const colour = failed + notImplemented === 0 ? 'brightgreen' : passed >= judgedRules / 2 ? 'yellow' : 'red';
  const message = encodeURIComponent(`${passed}/${judgedRules} rules`).replace(/-/g, '--');
  const label = encodeURIComponent(`${judged.runtime} ${judged.version}`).replace(/-/g, '--');
  return `![${judged.runtime} ${judged.version}: ${passed}/${judgedRules} rules passed, ${notApplicable} not applicable](https://img.shields.io/badge/${label}-${message}-${colour})`;
}

/** The per-runtime page: badge, counts, every rule's outcome, then each failing rule's evidence. */
export function runtimeReportPage(
  judged: JudgedRuntime,
  document: ResultsDocument,
  known: ReadonlyMap<string, KnownFailure>,
  clauses: readonly Clause[] = catalogueClauses(),
): string {
  const { passed, failed, notApplicable, notImplemented, errored, notJudged } = judged.counts;
  const judgedScenarios = withIntermittentFailures(document.scenarios, known);
  const coverage = coverageOf(judgedScenarios);
  const rules = (Object.entries(coverage.outcomes) as [string, Outcome][]).sort(
    ([a, oa], [b, ob]) => OUTCOME_ORDER.indexOf(oa) - OUTCOME_ORDER.indexOf(ob) || a.localeCompare(b),
  );
  const scenariosOf = (rule: string) => judgedScenarios.filter((s) => rulesOf(s).includes(rule));
  const lines = [
    `# ${judgementName(judged)} ${judged.version}: conformance report`,
    '',
    badgeLine(judged),
    '',
    `Judged on ${judged.date} by \`npm run judge:${judged.runtime}\`${judged.dialect ? ` in the ${judged.dialect} dialect` : ''}; generated from \`${judgementFolder(judged).replace(/^adapters/, 'reports')}/results.json\`.`,
    `Each outcome is explained in [the implementer's guide](${judged.dialect ? '../' : ''}../../docs/implementers.md#4-outcomes).`,
    '',
    '| rules passed | failed | not implemented | errored | not judged | not applicable | with a verdict |',
    '|---:|---:|---:|---:|---:|---:|---:|',
    `| ${passed} | ${failed} | ${notImplemented} | ${errored} | ${notJudged} | ${notApplicable} | ${verdictPercent(coverage)} % |`,
    '',
    '## Rules without a verdict, and why',
    '',
    ...[...rulesByReason(coverage)].map(([reason, ruleIds]) => `- ${reason}: ${ruleIds.join(', ')}`),
    ...(Object.keys(coverage.withoutVerdict).length === 0 ? ['None.'] : []),
    '',
    '## Rules',
    '',
    "Each outcome says how much of the rule it rests on: of the rule's scenarios, how many gave it a verdict, and of its clauses (rules/index.md), how many such a scenario checks. Scenarios are counted by outcome. Where the seeds leave a choice open, the reading the runtime took is named; a verdict resting on a command the adapter computes itself names that command.",
    '',
    '| rule | outcome | scenarios passed / failed / not implemented / errored / not judged / not applicable | reading taken | rests on emulated |',
    '|---|---|---|---|---|',
    ...rules.map(([rule, outcome]) => {
      const standing = judged.rules[rule];
      const scenarios = scenariosOf(rule);
      const n = (status: Outcome) => scenarios.filter((s) => outcomeFor(s, rule) === status).length;
      const counts = (['passed', 'failed', 'not implemented', 'errored', 'not judged', 'not applicable'] as const)
        .map(n)
        .join(' / ');
      const ran = scenarios.filter((s) => s.status !== 'not applicable');
      const emulated = [...new Set(ran.flatMap((s) => s.emulated ?? []))];
      // A scenario set aside by the reading it saw (not applicable) names it too.
      const readings = [...new Set(scenarios.flatMap((s) => s.readings ?? []))];
      const share = standing?.scenarios ? `, ${shareText(standing.scenarios, standing.clauses)}` : '';
      return `| ${rule} | ${outcome}${share} | ${counts} | ${readings.join('; ')} | ${emulated.map((cmd) => `\`${cmd}\``).join(', ')} |`;
    }),
    '',
    ...clausesLeftOpen(rules, judgedScenarios, clauses),
    '## Failing rules and their evidence',
    '',
  ];
  const failing = rules.filter(
    ([, outcome]) => outcome === 'failed' || outcome === 'not implemented' || outcome === 'errored',
  );
  if (failing.length === 0) lines.push('None.', '');
  for (const [rule, outcome] of failing) {
    lines.push(`### ${rule}: ${outcome}`, '');
    for (const scenario of scenariosOf(rule).filter((s) => outcomeFor(s, rule) === outcome)) {
      lines.push(`- **${scenario.name}** (\`${scenario.uri}:${scenario.line}\`, \`@id:${scenario.id}\`)`);
      const entry = listedUnder(known, scenario)?.entry;
      if (entry) lines.push(`  - Known failure (${entry.class}): ${entry.reason.trim().replace(/\s*\n\s*/g, ' ')}`);
      // An intermittent failure this run did not meet: its evidence is the reason's, from other runs.
      if (entry?.intermittent && scenario.message === undefined) {
        lines.push(
          `  - In this run: ${ranAs.get(scenario) ?? 'passed'}. The baseline lists the failure as intermittent, seen on other runs.`,
          '',
        );
        continue;
      }
      const shown = outcome === 'failed' ? failureShown(scenario, rule) : scenario;
      if (shown.step) lines.push(`  - Failing step: \`${shown.step}\``);
      if (scenario.means) lines.push(`  - Means: ${scenario.means}`);
      if (shown.message?.trim())
        lines.push(
          '  - What the kit observed:',
          '',
          '    ```',
          ...failureLines(shown.message)
            .slice(0, 20)
            .map((l) => `    ${clipped(withoutScenarioDirectory(l))}`),
          '    ```',
          '',
        );
      if (scenario.request)
        lines.push(
          '  - What the model was sent (the request the failing step read, else the latest):',
          '',
          '    ```',
          ...requestExcerpt(withoutScenarioDirectory(scenario.request), 12).map((l) => `    ${l}`),
          '    ```',
          '',
        );
    }
  }
  const time = timeBreakdown(document.scenarios);
  if (time.length > 0) lines.push('## Where the time went', '', '```', ...time, '```');
  return `${lines.join('\n').trimEnd()}\n`;
}

/**
 * What a rule's outcome does not rest on: the clauses no scenario of the kit checks, and, of the
 * rules with a verdict, the clauses no scenario judged on this runtime (all of theirs set aside).
 */
function clausesLeftOpen(
  rules: readonly [string, Outcome][],
  scenarios: readonly ScenarioResult[],
  clauses: readonly Clause[],
): string[] {
  const judgedRules = new Set(rules.filter(([, outcome]) => isVerdict(outcome)).map(([rule]) => rule));
  const line = (clause: Clause) => `- ${clause.rule} (${clause.letter}) ${clause.text}`;
  const unchecked = clauses.filter((clause) => clause.scenarios.length === 0);
  const unjudged = clauses.filter(
    (clause) => judgedRules.has(clause.rule) && clause.scenarios.length > 0 && !clauseJudged(scenarios, clause),
  );
  return [
    '## Clauses no scenario checks',
    '',
    "No scenario of the kit would fail a runtime that breaks these, on any runtime: a rule's outcome says nothing of them.",
    '',
    ...(unchecked.length > 0 ? unchecked.map(line) : ['None.']),
    '',
    '## Clauses of judged rules that no scenario judged here',
    '',
    'The scenarios that check these gave this runtime no verdict (not applicable, not judged or errored), so its outcome on the rule does not cover them.',
    '',
    ...(unjudged.length > 0 ? unjudged.map(line) : ['None.']),
    '',
  ];
}

export const TABLE_START = '<!-- runtimes-judged:start -->';
export const TABLE_END = '<!-- runtimes-judged:end -->';

/** The README table, one row per judged runtime, between its marker comments. */
export function runtimesTable(judged: JudgedRuntime[]): string {
  const rows = [...judged].sort((a, b) => judgementName(a).localeCompare(judgementName(b)));
  return [
    TABLE_START,
    '| runtime | version | judged | rules passed | failed | not implemented | errored | not judged | not applicable | report |',
    '|---|---|---|---:|---:|---:|---:|---:|---:|---|',
    ...rows.map(
      (r) =>
        `| ${judgementName(r)} | ${r.version} | ${r.date} | ${r.counts.passed} | ${r.counts.failed} | ${r.counts.notImplemented} | ${r.counts.errored ?? 0} | ${r.counts.notJudged ?? 0} | ${r.counts.notApplicable} | [REPORT](${judgementFolder(r)}/REPORT.md) |`,
    ),
    TABLE_END,
  ].join('\n');
}

/** The README with its runtimes table replaced. */
export function withRuntimesTable(readme: string, table: string): string {
  return withMarkedSection(readme, TABLE_START, TABLE_END, table);
}

/**
 * A path starts after a character no path here holds: matched only from there, a long output
 * without one (a line of 100,000 characters) is read once, not once from each of its characters.
 */
const PATH_START = '(?<![^\\s"\'`<>()])[^\\s"\'`<>()]*';
/** A scenario's own temporary directory (run directory, then scenario directory, each with a random suffix). */
const SCENARIO_DIRECTORY = new RegExp(`${PATH_START}/kit-run-[A-Za-z0-9]{6}/kit-[A-Za-z0-9]+-\\d+-[A-Za-z0-9]{6}`, 'g');
/** The run's temporary directory, where a path leads elsewhere in it (a runtime kept across scenarios). */
const RUN_DIRECTORY = new RegExp(`${PATH_START}/kit-run-[A-Za-z0-9]{6}(?=[/'"\\s]|$)`, 'g');

/**
 * Evidence with `<scenario>` for the directory the scenario ran in and `<run>` for the run's: a path
 * stays readable, and a report judged again changes only where a verdict or its evidence did.
 */
export function withoutScenarioDirectory(text: string): string {
  return text.replace(SCENARIO_DIRECTORY, '<scenario>').replace(RUN_DIRECTORY, '<run>');
}
