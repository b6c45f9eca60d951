import { escapeHtml, markdownCell } from './escape.js';
import type { ScenarioResult } from './scenario-results.js';
import { areaRows, failureLines } from './summary.js';
import { requestExcerpt } from '../projection/render.js';
import { rulesByReason, verdictPercent, type Coverage } from './coverage.js';
import { verdictOf, withStanding, type ScenarioVerdict, type Verdict } from './verdict.js';
import { isFailure, OUTCOMES, type Outcome } from './outcome.js';
import { headline } from './headline.js';
import { minorityPasses } from './judged-share.js';

/** A markdown summary of a run for a CI job summary (`$GITHUB_STEP_SUMMARY` and the like). */
export function formatMarkdown(results: ScenarioResult[], runtime: string, verdict: Verdict): string {
  const { coverage } = verdict;
  const { passed, failed, notImplemented, errored, notJudged } = coverage;
  const listed = (outcome: Outcome, rules: string[]) =>
    rules.length ? `, ${rules.length} ${outcome} (${rules.join(', ')})` : '';
  const lines = [
    `## Conformance: ${headline(verdict)}`,
    '',
    `Runtime \`${runtime}\`: ${results.length} scenarios, rules ${passed.length} passed` +
      listed('failed', failed) +
      listed('not implemented', notImplemented) +
      listed('errored', errored) +
      listed('not judged', notJudged) +
      '.',
    '',
    `Verdicts on ${coverage.withVerdict} of ${coverage.rules} rules (${verdictPercent(coverage)}%).` +
      (verdict.shortfall ? ` **${escapeHtml(verdict.shortfall)}**` : ''),
    ...thinPasses(results, coverage),
    ...withoutVerdictTable(coverage),
    '',
    `| area | scenarios | ${OUTCOMES.join(' | ')} | rules passed |`,
    `|---|---:|${OUTCOMES.map(() => '---:|').join('')}---:|`,
    ...areaRows(results, coverage).map(
      (row) =>
        `| ${row.area} | ${row.scenarios} | ${OUTCOMES.map((o) => row.tally[o]).join(' | ')} | ${row.rulesPassed}/${row.rules} |`,
    ),
  ];
  const failing = verdict.scenarios.filter((s) => s.standing !== 'passed' && s.standing !== 'no verdict');
  // With a baseline, what it expects is a count (listed folded); what it does not expect is listed whole.
  const expected = verdict.baseline
    ? failing.filter((s) => s.standing === 'expected-fail' || s.standing === 'intermittent-pass')
    : [];
  const table = (scenarios: readonly ScenarioVerdict[]) => {
    const rows = ['| outcome | rules | scenario | id |', '|---|---|---|---|'];
    for (const scenario of scenarios) {
      // An outline is one baseline entry but each of its failing rows is a failure of its own.
      const failed = results.filter((result) => isFailure(result.status) && verdictOf(verdict, result) === scenario);
      for (const result of failed.length > 0 ? failed : [scenario.result])
        rows.push(
          `| ${markdownCell(said(scenario))} | ${result.rules.join(' ')} | \`${result.uri}:${result.line}\` ${markdownCell(result.name)} | \`${result.id}\` |`,
        );
    }
    return rows;
  };
  const unexpected = failing.filter((s) => !expected.includes(s));
  if (expected.length > 0)
    lines.push(
      '',
      `<details><summary>${expected.length} outcome(s) the baseline expects</summary>`,
      '',
      ...table(expected),
      '',
      '</details>',
    );
  if (unexpected.length > 0)
    lines.push('', ...(verdict.baseline ? ['Not as the baseline expects:', ''] : []), ...table(unexpected));
  for (const { result } of withStanding(verdict, 'unexpected-fail')) {
    const request = result.request ? ['', ...requestExcerpt(result.request)] : [];
    lines.push(
      '',
      `<details><summary>${escapeHtml(`${result.id}: ${result.name}`)}</summary>`,
      '',
      '```',
      ...failureLines(result.message),
      ...request,
      '```',
      '',
      '</details>',
    );
  }
  return `${lines.join('\n')}\n`;
}

function thinPasses(results: readonly ScenarioResult[], coverage: Coverage): string[] {
  const thin = minorityPasses(results, coverage.outcomes);
  return thin.length > 0 ? ['', `Passed on a minority of their scenarios: ${thin.join(', ')}.`] : [];
}

function withoutVerdictTable(coverage: Coverage): string[] {
  const byReason = rulesByReason(coverage);
  if (byReason.size === 0) return [];
  return [
    '',
    '| no verdict because | rules |',
    '|---|---|',
    ...[...byReason].map(([reason, rules]) => `| ${markdownCell(reason)} | ${rules.join(' ')} |`),
  ];
}

/** A scenario's outcome as the run stands it, in the words every report uses. */
export function said({ standing, outcome, reason, mismatch }: ScenarioVerdict): string {
  if (standing === 'expected-fail') return `${outcome}, expected: ${reason}`;
  if (standing === 'unexpected-pass') return 'passes now: remove it from the baseline';
  if (standing === 'intermittent-pass') return `passed this time; fails on some runs: ${reason}`;
  return mismatch ? `${outcome}: ${mismatch}` : outcome;
}
