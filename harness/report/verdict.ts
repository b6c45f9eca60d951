import { chargedRules, EXPECTED_OUTCOME, listedUnder, type KnownFailures } from '../baseline/known-failures.js';
import { failedRules, type ScenarioResult } from './scenario-results.js';
import { coverageOf, coverageShortfall, type Coverage } from './coverage.js';
import { isFailure, ruleOutcome, type Outcome } from './outcome.js';

/**
 * A scenario's standing once a baseline is taken into account. Without a baseline every failure
 * is unexpected. An expected failure that passes is an error too (its entry is stale), and so is
 * a listed failure of another class than the entry says, or an errored scenario, which no
 * baseline can accept: it says nothing about the rule. A pass of an intermittent entry is expected:
 * the failure it lists shows on some runs only.
 */
export type Standing =
  | 'passed'
  | 'no verdict'
  | 'expected-fail'
  | 'intermittent-pass'
  | 'unexpected-pass'
  | 'unexpected-fail';

/**
 * One stable ID's standing: a scenario's, or an example row's. A baseline entry that names an
 * outline judges its rows together, as a rule is judged over its scenarios.
 */
export interface ScenarioVerdict {
  id: string;
  standing: Standing;
  /** The rows' outcome, as a rule's is decided over its scenarios. */
  outcome: Outcome;
  /** The first failing row, or the first row. */
  result: ScenarioResult;
  /** Why the baseline accepts its failure, when it lists it. */
  reason?: string;
  /** Why a listed scenario's failure is still unexpected. */
  mismatch?: string;
}

export interface Verdict {
  /** The run passes: no unexpected failure, no stale baseline entry, and enough rules with a verdict. */
  passed: boolean;
  scenarios: ScenarioVerdict[];
  coverage: Coverage;
  /** Why too few rules got a verdict for the run to pass. */
  shortfall?: string;
  /** The baseline file, when there was one. */
  baseline?: string;
}

/** `minVerdicts`: the share of selected rules, in percent, that must get a verdict. */
export function judge(
  results: ScenarioResult[],
  baseline?: KnownFailures,
  minVerdicts = 0,
  only?: readonly string[],
): Verdict {
  const byId = new Map<string, ScenarioResult[]>();
  const listedAs = (result: ScenarioResult) => (baseline && listedUnder(baseline.entries, result)?.key) ?? result.id;
  for (const result of results) byId.set(listedAs(result), [...(byId.get(listedAs(result)) ?? []), result]);
  const scenarios = [...byId].map(([id, rows]): ScenarioVerdict => {
    const outcome = ruleOutcome(rows.map((row) => row.status));
    const failing = rows.find((row) => row.status === outcome && isFailure(outcome));
    const entry = baseline?.entries.get(id);
    let standing = standingOf(outcome, entry && EXPECTED_OUTCOME[entry.class], entry?.intermittent);
    let mismatch =
      entry && isFailure(outcome) && standing === 'unexpected-fail'
        ? `the baseline lists it as ${entry.class}, but it ${outcome === 'errored' ? 'errored' : `is ${outcome}`}`
        : undefined;
    const otherRules =
      entry && standing === 'expected-fail'
        ? reasonAboutOtherRules(entry.reason, rows, outcome, entry.intermittent === true)
        : undefined;
    if (otherRules) [standing, mismatch] = ['unexpected-fail', otherRules];
    return {
      id,
      standing,
      outcome,
      result: failing ?? rows[0]!,
      ...(entry ? { reason: entry.reason } : {}),
      ...(mismatch ? { mismatch } : {}),
    };
  });
  const coverage = coverageOf(results, only);
  const shortfall = coverageShortfall(coverage, minVerdicts);
  return {
    passed:
      shortfall === undefined &&
      scenarios.every((s) => s.standing !== 'unexpected-fail' && s.standing !== 'unexpected-pass'),
    scenarios,
    coverage,
    ...(shortfall === undefined ? {} : { shortfall }),
    ...(baseline ? { baseline: baseline.file } : {}),
  };
}

/**
 * Why a baseline entry's reason does not describe this failure, if it does not: the rules it starts
 * with must be among those the failure is charged to (the failing step's), or its words are about
 * another check than the one that failed. An intermittent entry's rules are the checks it may fail
 * at, run by run: one of them suffices.
 */
function reasonAboutOtherRules(
  reason: string,
  rows: readonly ScenarioResult[],
  outcome: Outcome,
  intermittent: boolean,
): string | undefined {
  const named = chargedRules(reason);
  const failing = rows.filter((row) => row.status === outcome);
  // A failure found after every check held (an unscripted request) names no check: its reason says whose it is.
  if (failing.every((row) => row.step === undefined)) return undefined;
  const charged = new Set(failing.flatMap((row) => (row.charged ? failedRules(row) : row.rules)));
  const other = named.filter((rule) => !charged.has(rule));
  if (named.length > 0 && other.length > 0 && !(intermittent && other.length < named.length))
    return `the baseline's reason is about ${other.join(' ')}, but the failure is charged to ${[...charged].join(' ')}: the reason must describe the failing check`;
  // A later check's failure is news the reason must tell too, or an entry written for one failure hides the next.
  const untold = failing
    .flatMap((row) => row.alsoFailed ?? [])
    .find((later) => !later.rules.some((rule) => named.includes(rule)));
  if (named.length > 0 && untold)
    return `it also fails ${untold.rules.join(' ')} (${untold.step ?? 'a later check'}), which the baseline's reason does not name: start the reason with every rule it fails`;
  return outcome === 'not implemented' ? unnamedLack(reason, failing) : undefined;
}

/**
 * A "not implemented" names what the runtime lacks (`not implemented: apply_patch (...)`): a reason
 * that does not name it describes another lack, as one written before the scenario changed would.
 */
function unnamedLack(reason: string, failing: readonly ScenarioResult[]): string | undefined {
  // A command or a tool by its name (`session.move`, `apply_patch`); a lack in words is not checked.
  const lacks = failing.flatMap(
    (row) => /not implemented: ([a-z]\w*[._][\w.-]*)(?: |$)/m.exec(row.message ?? '')?.[1] ?? [],
  );
  const unnamed = [...new Set(lacks)].filter((lack) => !reason.includes(lack));
  if (lacks.length === 0 || unnamed.length < new Set(lacks).size) return undefined;
  return `the baseline's reason does not name ${unnamed.join(', ')}, which the runtime lacks here: the reason must describe the failing check`;
}

/** `expected`: the outcome the scenario's baseline entry expects, when it has one. */
function standingOf(outcome: Outcome, expected: Outcome | undefined, intermittent = false): Standing {
  if (isFailure(outcome)) return outcome === expected ? 'expected-fail' : 'unexpected-fail';
  if (outcome !== 'passed') return 'no verdict';
  if (intermittent) return 'intermittent-pass';
  return expected ? 'unexpected-pass' : 'passed';
}

export function withStanding(verdict: Verdict, standing: Standing): ScenarioVerdict[] {
  return verdict.scenarios.filter((scenario) => scenario.standing === standing);
}

/** The verdict a result is judged under: its own, or its outline's when the baseline names the outline. */
export function verdictOf(verdict: Verdict, result: ScenarioResult): ScenarioVerdict | undefined {
  return (
    verdict.scenarios.find((scenario) => scenario.id === result.id) ??
    verdict.scenarios.find((scenario) => scenario.id === result.outline)
  );
}
