import type { ScenarioResult } from './scenario-results.js';
import { failureLines, tally } from './summary.js';

/**
 * The JUnit XML of a run, written from each scenario's outcome (outcomes as run: the baseline
 * does not apply). A suite per rule area, a test case per scenario row: `failed` and `not
 * implemented` are failures, `errored` an error, `not applicable` and `not judged` skipped, each
 * with its outcome as the type, so a CI page says what the kit's summary says.
 */
export function junitReport(results: readonly ScenarioResult[]): string {
  const areas = [...new Set(results.map((r) => r.area))].sort();
  const lines = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="conformance" ${counts(results)}>`,
    ...areas.flatMap((area) => {
      const inArea = results.filter((r) => r.area === area);
      return [`  <testsuite name="${attribute(area)}" ${counts(inArea)}>`, ...inArea.map(testCase), '  </testsuite>'];
    }),
    '</testsuites>',
  ];
  return `${lines.join('\n')}\n`;
}

function counts(results: readonly ScenarioResult[]): string {
  const t = tally(results);
  const failures = t.failed + t['not implemented'];
  const skipped = t['not applicable'] + t['not judged'];
  return `tests="${results.length}" failures="${failures}" errors="${t.errored}" skipped="${skipped}"`;
}

function testCase(result: ScenarioResult): string {
  const name = `${result.rules.join(' ')} ${result.name} (@id:${result.id})`;
  const open = `    <testcase classname="${attribute(result.uri)}" name="${attribute(name)}" file="${attribute(result.uri)}" line="${result.line}"`;
  const detail = [result.step ? `at: ${result.step}` : '', ...failureLines(result.message)].filter(Boolean).join('\n');
  const first = failureLines(result.message)[0] ?? '';
  switch (result.status) {
    case 'passed':
      return `${open}/>`;
    case 'failed':
    case 'not implemented':
      return `${open}>\n      <failure type="${result.status}" message="${attribute(first)}">${text(detail)}</failure>\n    </testcase>`;
    case 'errored':
      return `${open}>\n      <error type="errored" message="${attribute(first)}">${text(detail)}</error>\n    </testcase>`;
    default:
      return `${open}>\n      <skipped message="${attribute(`${result.status}: ${result.reason ?? ''}`)}"/>\n    </testcase>`;
  }
}

/** XML 1.0 allows neither these control characters nor unpaired surrogates, escaped or not. */
const NOT_XML =
  /[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

function text(value: string): string {
  return value.replace(NOT_XML, '\ufffd').replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

function attribute(value: string): string {
  return text(value).replace(/"/g, '&quot;').replace(/\n/g, '&#10;');
}
