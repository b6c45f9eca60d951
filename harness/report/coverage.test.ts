import { test } from 'node:test';
import assert from 'node:assert/strict';
import { coverageOf, rulesByReason, sharedWording } from './coverage.js';
import { scenarioResult } from './results-for-tests.js';
import type { ScenarioResult } from './scenario-results.js';
import { clauseJudged } from './judged-share.js';
import { readClauses } from '../suite/clauses.js';
import { kitPath } from '../kit-root.js';

// TLS-04's clauses in rules/index.md: (a) and (b) `tls-patch-external-1`, (c) `tls-patch-external-2`,
// (d) `tls-patch-external-3` and `tls-patch-hunks-1`, (e) `tls-patch-4`.
const tls04 = (statuses: Record<string, ScenarioResult['status']>) =>
  Object.entries(statuses).map(([id, status]) => scenarioResult(id, status, ['TLS-04']));

test('a pass on the clauses a runtime was judged on stands when they are at least half', () => {
  const coverage = coverageOf(
    tls04({
      'tls-patch-external-1': 'passed',
      'tls-patch-external-2': 'not implemented',
      'tls-patch-hunks-1': 'passed',
    }),
  );
  assert.equal(coverage.outcomes['TLS-04'], 'passed');
});

test('clauses not implemented are not judged ones: outnumbering the passes, the rule is not implemented', () => {
  const coverage = coverageOf(
    tls04({
      'tls-patch-external-1': 'not implemented',
      'tls-patch-external-2': 'not implemented',
      'tls-patch-hunks-1': 'passed',
      'tls-patch-4': 'passed',
    }),
  );
  assert.equal(coverage.outcomes['TLS-04'], 'not implemented');
});

test('clauses without a verdict outnumbering the passes leave the rule not judged, the count said', () => {
  const coverage = coverageOf(
    tls04({
      'tls-patch-external-1': 'not judged',
      'tls-patch-external-2': 'not implemented',
      'tls-patch-hunks-1': 'passed',
    }),
  );
  assert.equal(coverage.outcomes['TLS-04'], 'not judged');
  assert.deepEqual(coverage.withoutVerdict['TLS-04'], [
    "not judged: passed on 1 of the 4 clauses it could be judged on here, the others' scenarios without a verdict (1 not implemented)",
  ]);
});

// INB-04 is about `prompt.admit.held` (rules/index.md, About).
const inb04 = (status: ScenarioResult['status'], emulated: string[]) =>
  scenarioResult('inb-admission-7', status, ['INB-04'], { emulated });

test('a verdict resting on the emulation of what a rule is about is none; not implemented where the runtime lacks it', () => {
  assert.equal(coverageOf([inb04('passed', ['prompt.admit.held'])]).outcomes['INB-04'], 'not judged');
  assert.equal(coverageOf([inb04('failed', ['prompt.admit.held (absent)'])]).outcomes['INB-04'], 'not implemented');
  assert.equal(coverageOf([inb04('passed', ['prompt.admit.receipt'])]).outcomes['INB-04'], 'passed');
});

// RUN-05 rests on `prompt.admit.held` (rules/index.md, Rests on): its scenarios only set it up with it.
test('a verdict resting on the emulation of a command a rule is only set up with is none, and never not implemented', () => {
  const run05 = (emulated: string[]) => scenarioResult('run-replay-5', 'passed', ['RUN-05'], { emulated });
  assert.equal(coverageOf([run05(['prompt.admit.held (absent)'])]).outcomes['RUN-05'], 'not judged');
  assert.equal(coverageOf([run05(['prompt.admit.held'])]).outcomes['RUN-05'], 'not judged');
  assert.equal(coverageOf([run05(['prompt.admit.receipt'])]).outcomes['RUN-05'], 'passed');
});

// CMP-12's clauses are about `session.select.window`; CMP-01's (f) alone lists `cmp-compaction-1/buffer-is-greater`
// and is about `compaction.configure.reserve`; TOO-04's (a) and (b) list `too-bounding-4`, (b) about `history.output-path`.
test('a scenario checking only clauses about an emulated part judges its rule neither way; beside another clause, only that clause', () => {
  const window = scenarioResult('cmp-model-window-1', 'passed', ['CMP-12'], { emulated: ['session.select.window'] });
  assert.equal(coverageOf([window]).outcomes['CMP-12'], 'not judged');
  const reserve = (emulated: string[]) => ({
    ...scenarioResult('cmp-compaction-1', 'failed', ['CMP-01'], { emulated }),
    outline: 'cmp-compaction-1',
    id: 'cmp-compaction-1/buffer-is-greater',
  });
  assert.equal(coverageOf([reserve(['compaction.configure.reserve'])]).outcomes['CMP-01'], 'not judged');
  assert.equal(coverageOf([reserve([])]).outcomes['CMP-01'], 'failed');
  const path = scenarioResult('too-bounding-4', 'passed', ['TOO-04'], { emulated: ['history.output-path'] });
  const clauses = readClauses(kitPath('rules', 'index.md')).clauses.filter((clause) => clause.rule === 'TOO-04');
  assert.deepEqual(
    clauses.map((clause) => clauseJudged([path], clause)),
    clauses.map((clause) => clause.letter === 'a'),
  );
});

test('a command the runtime refused stays not implemented beside an emulated part', () => {
  assert.equal(coverageOf([inb04('not implemented', ['prompt.admit.held'])]).outcomes['INB-04'], 'not implemented');
});

// INB-02 is about `prompt.admit.receipt`; INB-04 about `prompt.admit.held`.
test('a refused action is not implemented for a rule about what was refused, not judged for a rule about another part', () => {
  const refusedHeld = (rule: string) =>
    scenarioResult('inb-admission-3', 'not implemented', [rule], { refused: ['prompt.admit.held'] });
  assert.equal(coverageOf([refusedHeld('INB-04')]).outcomes['INB-04'], 'not implemented');
  const inb02 = coverageOf([refusedHeld('INB-02')]);
  assert.equal(inb02.outcomes['INB-02'], 'not judged');
  assert.match(inb02.withoutVerdict['INB-02']![0]!, /lacks `prompt\.admit\.held`, which INB-02's scenario needs only/);
  const wholeCommand = scenarioResult('inb-admission-3', 'not implemented', ['INB-02'], { refused: ['prompt.admit'] });
  assert.equal(coverageOf([wholeCommand]).outcomes['INB-02'], 'not implemented');
});

// EPO-05 is about `epoch`; EPO-04 about no command, INB-14 rests on `prompt.admit.queued`.
test('a command refused only to set up or look leaves no verdict, but a rule about it not implemented', () => {
  const refusedLook = (rule: string, refused: string) =>
    scenarioResult('epo-epochs-5', 'not judged', [rule], { refusedToReach: [refused] });
  assert.equal(coverageOf([refusedLook('EPO-05', 'epoch')]).outcomes['EPO-05'], 'not implemented');
  assert.equal(coverageOf([refusedLook('EPO-04', 'epoch')]).outcomes['EPO-04'], 'not judged');
  assert.equal(coverageOf([refusedLook('INB-14', 'prompt.admit.queued')]).outcomes['INB-14'], 'not judged');
  assert.equal(coverageOf([refusedLook('EPO-05', 'inbox')]).outcomes['EPO-05'], 'not judged');
});

test('one cause of errored scenarios is one reason, whatever each scenario sent and where it ran', () => {
  const timedOut = (id: string, dir: string) =>
    scenarioResult(id, 'errored', ['INB-01'], {
      message: `RuntimeNotDriven: the runtime did not answer session.create {"location":"/dev/shm/${dir}/workspaces/p"} within 10000 ms`,
    });
  const coverage = coverageOf([timedOut('a', 'kit-Admission1-3-Ab12Cd'), timedOut('b', 'kit-Admission1-9-zZ09xy')]);
  assert.deepEqual(
    [...rulesByReason(coverage).keys()],
    ['errored: the runtime did not answer session.create {…} within 10000 ms'],
  );
  assert.equal(
    sharedWording('saw /tmp/kit-Steer2-14-a1B2c3/workspaces/x and /tmp/kept'),
    'saw <scenario directory> and /tmp/kept',
  );
});
