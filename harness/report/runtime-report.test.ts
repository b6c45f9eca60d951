import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { ScenarioResult } from './scenario-results.js';
import { coverageOf } from './coverage.js';
import { readClauses } from '../suite/clauses.js';
import { kitPath } from '../kit-root.js';
import {
  judgedRuntime,
  runtimeReportPage,
  withoutScenarioDirectory,
  runtimesTable,
  withRuntimesTable,
  TABLE_END,
  TABLE_START,
  type JudgedRuntime,
} from './runtime-report.js';

const scenario = (id: string, status: ScenarioResult['status'], rules: string[], message?: string): ScenarioResult => ({
  id,
  name: `scenario ${id}`,
  uri: 'features/inbox/Admission1.feature',
  line: 7,
  rules,
  area: 'inbox',
  status,
  ...(status === 'failed' || status === 'not implemented' ? { message } : {}),
  ...(status === 'not applicable' ? { reason: message } : {}),
});

const document = {
  scenarios: [
    scenario('a', 'passed', ['INB-01']),
    scenario(
      'b',
      'failed',
      ['INB-02'],
      'AssertionError: the provider was sent "B" before "C"\n    at step (steps/x.ts:1:1)',
    ),
    scenario('c', 'not applicable', ['CTX-01'], 'needs capability kit-sources'),
    scenario('d', 'not implemented', ['AGT-01'], 'not implemented: agent.define'),
  ],
};

const judged = (runtime: string, passed: number): JudgedRuntime => ({
  runtime,
  version: '1.0.0',
  date: '2026-01-15',
  counts: { passed, failed: 1, notImplemented: 1, notApplicable: 1, errored: 0, notJudged: 0 },
  rules: {},
});

const known = new Map([
  ['b', { class: 'deviation' as const, reason: 'INB-02: OpenCode sent B first; a real deviation' }],
]);

test('each rule keeps its outcome and the line that says why: the baseline reason, or why no verdict', () => {
  const one = { judged: 1, of: 1 };
  assert.deepEqual(judgedRuntime('opencode', '1.0.0', '2026-01-15', document, known, []).rules, {
    'INB-01': { outcome: 'passed', scenarios: one },
    'INB-02': { outcome: 'failed', note: 'INB-02: OpenCode sent B first; a real deviation', scenarios: one },
    'CTX-01': { outcome: 'not applicable', note: 'needs capability kit-sources', scenarios: { judged: 0, of: 1 } },
    'AGT-01': { outcome: 'not implemented', note: 'not implemented: agent.define', scenarios: one },
  });
});

/** A clause of rules/index.md, lettered as its place in the rule. */
const clauseOf = (rule: string, letter: string, text: string, scenarios: string[]) => ({
  rule,
  letter,
  text,
  scenarios,
  about: [],
  line: letter.charCodeAt(0) - 96,
});

test("a rule's standing says how many of its clauses a scenario that gave it a verdict checks; the page lists the rest", () => {
  const clauses = [
    clauseOf('INB-01', 'a', 'Checked here', ['a']),
    clauseOf('INB-01', 'b', 'Checked only where the runtime has kit sources', ['c']),
    clauseOf('INB-01', 'c', 'Checked by no scenario', []),
  ];
  const standing = judgedRuntime('opencode', '1.0.0', '2026-01-15', document, known, clauses);
  assert.deepEqual(standing.rules['INB-01'], {
    outcome: 'passed',
    scenarios: { judged: 1, of: 1 },
    clauses: { judged: 1, of: 3 },
  });
  const page = runtimeReportPage(standing, document, known, clauses);
  assert.match(page, /\| INB-01 \| passed, 1 of 1 scenarios, 1 of 3 clauses judged \|/);
  assert.match(page, /## Clauses no scenario checks\n\n.*\n\n- INB-01 \(c\) Checked by no scenario\n/);
  assert.match(
    page,
    /## Clauses of judged rules that no scenario judged here\n\n.*\n\n- INB-01 \(b\) Checked only where the runtime has kit sources\n/,
  );
});

test('a pass that rests partly on clauses the runtime does not implement says how many', () => {
  const partly = {
    scenarios: [
      scenario('a', 'passed', ['INB-15']),
      scenario('d', 'not implemented', ['INB-15'], 'not implemented: session.run'),
    ],
  };
  const clauses = [
    clauseOf('INB-15', 'a', 'Checked here', ['a']),
    clauseOf('INB-15', 'b', 'Only where the runtime runs a session', ['d']),
  ];
  const standing = judgedRuntime('kilo', '1.0.0', '2026-01-15', partly, new Map(), clauses);
  assert.deepEqual(standing.rules['INB-15']?.clauses, { judged: 1, of: 2, notImplemented: 1 });
  assert.match(
    runtimeReportPage(standing, partly, new Map(), clauses),
    /\| INB-15 \| passed, 2 of 2 scenarios, 1 of 2 clauses judged, 1 not implemented \|/,
  );
});

test('a rule stands failed where the baseline lists an intermittent failure, even on a run that passed it', () => {
  const racing = new Map([
    ['a', { class: 'deviation' as const, reason: 'INB-01: races its own write queue', intermittent: true }],
  ]);
  const published = judgedRuntime('opencode', '1.0.0', '2026-01-15', document, racing, []);
  assert.deepEqual(published.rules['INB-01'], {
    outcome: 'failed',
    note: 'INB-01: races its own write queue',
    scenarios: { judged: 2, of: 2 },
  });
  assert.deepEqual([published.counts.passed, published.counts.failed], [0, 2]);
  // The failure is charged to the rule its reason names, not to the scenario's other rules.
  const elsewhere = new Map([
    ['a', { class: 'deviation' as const, reason: 'RUN-01: the call was not durable yet', intermittent: true }],
  ]);
  const charged = judgedRuntime('opencode', '1.0.0', '2026-01-15', document, elsewhere);
  assert.deepEqual([charged.rules['INB-01']?.outcome, charged.rules['RUN-01']?.outcome], ['passed', 'failed']);
  // The page says the run passed it, and shows no empty evidence.
  const page = runtimeReportPage(published, document, racing);
  const section = page.slice(page.indexOf('### INB-01: failed'));
  assert.match(section, /In this run: passed\. The baseline lists the failure as intermittent/);
  assert.doesNotMatch(section.slice(0, section.indexOf('###', 4)), /What the kit observed/);
});

test('an intermittent failure stands too where this run gave its scenario no verdict', () => {
  const timedOut = {
    scenarios: [{ ...scenario('a', 'not judged', ['INB-07']), reason: 'the session did not settle' }],
  };
  const racing = new Map([
    ['a', { class: 'deviation' as const, reason: 'INB-07: the steer went out before the result', intermittent: true }],
  ]);
  const published = judgedRuntime('copilot', '1.0.0', '2026-01-15', timedOut, racing, []);
  assert.equal(published.rules['INB-07']?.outcome, 'failed');
  const page = runtimeReportPage(published, timedOut, racing);
  assert.match(page, /In this run: not judged\. The baseline lists the failure as intermittent/);
  // A failure the run did meet is shown as it is, not twice.
  const met = { scenarios: [scenario('a', 'failed', ['INB-07'], 'expected the result first')] };
  assert.equal(judgedRuntime('copilot', '1.0.0', '2026-01-15', met, racing, []).rules['INB-07']?.outcome, 'failed');
  assert.doesNotMatch(runtimeReportPage(published, met, racing), /In this run:/);
});

test('rule counts come from the coverage of the results', () => {
  assert.deepEqual(judgedRuntime('opencode', '1.0.0', '2026-01-15', document, known).counts, {
    passed: 1,
    failed: 1,
    notImplemented: 1,
    notApplicable: 1,
    errored: 0,
    notJudged: 0,
  });
});

test('the page lists each failing scenario with its evidence and its baseline reason, not the kit stack', () => {
  const page = runtimeReportPage(judged('opencode', 1), document, known);
  assert.match(page, /### INB-02: failed\n/);
  assert.match(page, /the provider was sent "B" before "C"/);
  assert.match(page, /Known failure \(deviation\): INB-02: OpenCode sent B first; a real deviation/);
  assert.doesNotMatch(page, /steps\/x\.ts/);
  assert.match(page, /\| INB-02 \| failed \| 0 \/ 1 \/ 0 \/ 0 \/ 0 \/ 0 \| {2}\| {2}\|/);
  assert.match(page, /\| AGT-01 \| not implemented \|/);
  assert.match(page, /- needs capability kit-sources: CTX-01/);
});

test('the README table is replaced between its markers, one row per runtime, the rest kept', () => {
  const readme = `# Kit\n\n${TABLE_START}\nold\n${TABLE_END}\n\nafter\n`;
  const updated = withRuntimesTable(readme, runtimesTable([judged('pi', 2), judged('opencode', 1)]));
  assert.ok(updated.startsWith('# Kit\n\n'));
  assert.ok(updated.endsWith('\n\nafter\n'));
  assert.doesNotMatch(updated, /\nold\n/);
  const rows = updated.split('\n').filter((line) => line.startsWith('| opencode') || line.startsWith('| pi'));
  assert.deepEqual(
    rows.map((row) => row.split(' | ')[0]),
    ['| opencode', '| pi'],
  );
  assert.throws(() => withRuntimesTable('# no markers\n', 'table'), /markers/);
});

test('a failing scenario shows the end of the request the model was sent, long lines cut', () => {
  const request = [
    'request 2 of 2',
    '  baseline: You are a coding agent',
    ...Array.from({ length: 20 }, (_, i) => `  user: turn ${i + 1}`),
    `  tool: ${'x'.repeat(1000)}`,
  ].join('\n');
  const withRequest = { scenarios: [{ ...document.scenarios[1]!, request }] };
  const page = runtimeReportPage(judged('opencode', 0), withRequest, new Map());
  assert.match(page, /What the model was sent/);
  assert.match(page, /request 2 of 2/);
  assert.match(page, /user: turn 20/);
  assert.doesNotMatch(page, /user: turn 5\n/);
  assert.match(page, /x … \(768 more characters\)/);
});

test('a verdict names the reading it took and the emulated commands it rests on, and an errored or not judged rule is no verdict', () => {
  const page = runtimeReportPage(
    judged('opencode', 1),
    {
      scenarios: [
        {
          ...scenario('a', 'passed', ['INB-01']),
          emulated: ['session.idle', 'session.wake'],
          readings: ['prompt.default-delivery: steer'],
        },
        { ...scenario('e', 'errored', ['INB-03']), message: 'RuntimeNotDriven: did not answer within 1000 ms' },
        { ...scenario('j', 'not judged', ['RUN-02']), reason: 'the runtime never reached a 25th turn' },
      ],
    },
    new Map(),
  );
  assert.match(
    page,
    /\| INB-01 \| passed \| 1 \/ 0 \/ 0 \/ 0 \/ 0 \/ 0 \| prompt\.default-delivery: steer \| `session\.idle`, `session\.wake` \|/,
  );
  assert.match(page, /\| INB-03 \| errored \|/);
  assert.match(page, /- errored: did not answer within 1000 ms: INB-03/);
  assert.match(page, /- not judged: the runtime never reached a 25th turn: RUN-02/);
  assert.match(page, /### INB-03: errored\n/);
});

test("a scenario that reached the command a rule is about through the adapter's emulation judges that rule neither way", () => {
  const page = runtimeReportPage(
    judged('qwen-code', 1),
    {
      scenarios: [
        { ...scenario('w', 'passed', ['INB-13']), emulated: ['session.idle', 'session.wake'] },
        { ...scenario('q', 'failed', ['INB-06', 'INB-10']), charged: ['INB-06'], emulated: ['prompt.admit'] },
        { ...scenario('s', 'passed', ['INB-10']), emulated: ['session.idle'] },
      ],
    },
    new Map(),
  );
  assert.match(page, /\| INB-13 \| not judged \|/);
  assert.match(page, /\| INB-06 \| not judged \|/);
  assert.match(page, /\| INB-10 \| passed/);
  assert.match(
    page,
    /- not judged: rests on the adapter's emulation of `session\.wake`, which INB-13 is about: INB-13/,
  );
});

test('a pass resting on fewer clauses than the runtime could have been judged on is no verdict; a profile it lacks does not count', () => {
  // RTY-01's clauses: (a) overloaded, (b) rate-limited, ... each with scenarios of their own (rules/index.md).
  const { clauses } = readClauses(kitPath('rules', 'index.md'));
  const retry = clauses.filter((clause) => clause.rule === 'RTY-01' && clause.scenarios.length > 0);
  const [first, ...rest] = retry;
  const judgedOne = { ...scenario(first!.scenarios[0]!, 'passed', ['RTY-01']) };
  const lacking = rest.map((clause) => ({
    ...scenario(clause.scenarios[0]!, 'not applicable', ['RTY-01']),
    reason: 'needs capability virtual-clock',
  }));
  const outsideProfile = rest.map((clause) => ({
    ...scenario(clause.scenarios[0]!, 'not applicable', ['RTY-01']),
    reason: 'needs profile sol',
  }));
  assert.equal(coverageOf([judgedOne, ...lacking]).outcomes['RTY-01'], 'not judged');
  assert.match(coverageOf([judgedOne, ...lacking]).withoutVerdict['RTY-01']![0]!, /passed on \d of the \d+ clauses/);
  assert.equal(coverageOf([judgedOne, ...outsideProfile]).outcomes['RTY-01'], 'passed');
});

test("a path into the scenario's own directory reads <scenario>, whatever the temporary root and suffixes", () => {
  assert.equal(
    withoutScenarioDirectory('<cwd>/dev/shm/kit-run-rXOJHO/kit-Compaction1-120-iL7X7g/workspaces/s1</cwd>'),
    '<cwd><scenario>/workspaces/s1</cwd>',
  );
  assert.equal(
    withoutScenarioDirectory('read "/var/tmp/x-y/kit-run-AAAAAA/kit-Tools2-7-bbbbbb/a.txt" and /tmp/kit-run-aa/b'),
    'read "<scenario>/a.txt" and /tmp/kit-run-aa/b',
  );
  assert.equal(
    withoutScenarioDirectory(
      "saved to /dev/shm/kit-run-1f5XLW/kit-runtime-3Brtlc/data, '/dev/shm/kit-run-ugOgwb/kit-Tool…'",
    ),
    "saved to <run>/kit-runtime-3Brtlc/data, '<run>/kit-Tool…'",
  );
  const withRequest = {
    scenarios: [
      {
        ...document.scenarios[1]!,
        request: 'request 1 of 1\n  user: in /tmp/kit-run-Ab3dE9/kit-Epochs1-282-Zz9yY8/s1',
      },
    ],
  };
  const page = runtimeReportPage(judged('opencode', 0), withRequest, new Map());
  assert.match(page, /user: in <scenario>\/s1/);
  assert.doesNotMatch(page, /kit-run-/);
});

test('a listed failure found after every check held is charged to the rules its reason names; the scenario rule passes', () => {
  const afterChecks = {
    scenarios: [{ ...scenario('a', 'failed', ['CMP-12'], 'Error: an unscripted request'), step: undefined }],
  };
  const reason = new Map([['a', { class: 'deviation' as const, reason: 'CMP-03: compacted with nothing to fold' }]]);
  const published = judgedRuntime('pi', '1.0.0', '2026-01-15', afterChecks, reason, []);
  assert.deepEqual([published.rules['CMP-03']?.outcome, published.rules['CMP-12']?.outcome], ['failed', 'passed']);
});
