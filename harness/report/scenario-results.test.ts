import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Envelope } from '@cucumber/messages';
import { failureShown, ScenarioResultCollector } from './scenario-results.js';
import { coverageOf } from './coverage.js';
import { noteText } from './outcome.js';

/**
 * The messages Cucumber sends for one scenario of INB-10 and INB-11 with three steps (lines 5, 7
 * and 9; a comment on line 6 saying the When checks INB-07, or the comments `checks` names), the
 * step at `failing` ending with `status` and `exception`.
 */
function scenario(
  failing: number,
  status: 'FAILED' | 'PASSED',
  exception?: string,
  checks: Record<number, string> = { 6: 'INB-07' },
  message = 'boom',
): Envelope[] {
  const keywords = ['Given ', 'When ', 'Then '];
  const types = ['Context', 'Action', 'Outcome'] as const;
  const steps = keywords.map((keyword, i) => ({
    id: `s${i}`,
    keyword,
    text: `step ${i}`,
    location: { line: 5 + i * 2 },
  }));
  return [
    {
      gherkinDocument: {
        uri: 'features/x/X1.feature',
        comments: Object.entries(checks).map(([line, rule]) => ({
          location: { line: Number(line) },
          text: rule.trimStart().startsWith('#') ? rule : `    # checks: ${rule}`,
        })),
        feature: { children: [{ scenario: { id: 'sc', location: { line: 4 }, steps, examples: [] } }] },
      },
    },
    {
      pickle: {
        id: 'p',
        uri: 'features/x/X1.feature',
        name: 'a scenario',
        astNodeIds: ['sc'],
        tags: [
          { name: '@INB-10', astNodeId: 't' },
          { name: '@INB-11', astNodeId: 't' },
          { name: '@id:x-1', astNodeId: 't' },
        ],
        steps: steps.map((step, i) => ({ id: `ps${i}`, text: step.text, astNodeIds: [step.id], type: types[i] })),
      },
    },
    {
      testCase: { id: 'c', pickleId: 'p', testSteps: steps.map((_, i) => ({ id: `ts${i}`, pickleStepId: `ps${i}` })) },
    },
    { testCaseStarted: { id: 'r', testCaseId: 'c' } },
    ...steps.map((_, i) => ({
      testStepFinished: {
        testCaseStartedId: 'r',
        testStepId: `ts${i}`,
        testStepResult:
          i === failing
            ? { status, message, ...(exception ? { exception: { type: exception } } : {}) }
            : { status: i > failing && status === 'FAILED' ? 'SKIPPED' : 'PASSED' },
      },
    })),
    { testCaseFinished: { testCaseStartedId: 'r', willBeRetried: false } },
  ] as unknown as Envelope[];
}

function collect(envelopes: Envelope[]) {
  const collector = new ScenarioResultCollector();
  for (const envelope of envelopes) collector.accept(envelope);
  return collector.results()[0]!;
}

test("a failed check is charged to the rule its comment names; the scenario's own rules get no verdict from it", () => {
  const result = collect(scenario(1, 'FAILED', 'AssertionError'));
  assert.equal(result.status, 'failed');
  assert.deepEqual(result.charged, ['INB-07']);
  assert.equal(result.step, 'When step 1 (line 7)');
  assert.deepEqual(coverageOf([result]).outcomes, {
    'INB-07': 'failed',
    'INB-10': 'not judged',
    'INB-11': 'not judged',
  });
});

test("a rule checked by no step gets no verdict from another rule's failure", () => {
  const result = collect(scenario(2, 'FAILED', 'AssertionError', { 8: 'INB-07' }));
  assert.deepEqual(result.charged, ['INB-07']);
  assert.equal(result.held, undefined);
  assert.deepEqual(coverageOf([result]).outcomes, {
    'INB-07': 'failed',
    'INB-10': 'not judged',
    'INB-11': 'not judged',
  });
});

test("a failed check of one of the scenario's rules leaves its other rule passed when that rule's checks came before", () => {
  const result = collect(scenario(2, 'FAILED', 'AssertionError', { 6: 'INB-10', 8: 'INB-11' }));
  assert.deepEqual(result.charged, ['INB-11']);
  assert.deepEqual(result.held, ['INB-10']);
  assert.deepEqual(coverageOf([result]).outcomes, { 'INB-10': 'passed', 'INB-11': 'failed' });
});

test('a check a step names of a rule the scenario is not tagged with judges that rule, passed or failed', () => {
  const passed = collect(scenario(2, 'PASSED', undefined, { 6: 'INB-07' }));
  assert.equal(passed.status, 'passed');
  assert.deepEqual(passed.held, ['INB-07']);
  assert.deepEqual(coverageOf([passed]).outcomes, { 'INB-07': 'passed', 'INB-10': 'passed', 'INB-11': 'passed' });
  const later = collect(scenario(1, 'FAILED', 'AssertionError', { 8: 'INB-07' }));
  assert.deepEqual(coverageOf([later]).outcomes, { 'INB-10': 'not judged', 'INB-11': 'not judged' });
});

test('a runtime that ended its own process during the action failed it for every rule of the scenario', () => {
  const ended = "RuntimeEnded: the runtime ended its process during the action (it runs in the adapter's): exit 1";
  const result = collect(scenario(1, 'FAILED', 'RuntimeEnded', {}, ended));
  assert.equal(result.status, 'failed');
  assert.deepEqual(result.charged, ['INB-10', 'INB-11']);
  assert.deepEqual(coverageOf([result]).outcomes, { 'INB-10': 'failed', 'INB-11': 'failed' });
});

test('an action that fails naming no rule judges none: the runtime never reached what the checks read', () => {
  const result = collect(scenario(1, 'FAILED', 'AssertionError', {}));
  assert.equal(result.status, 'not judged');
  assert.equal(result.charged, undefined);
  assert.match(
    result.reason!,
    /^the runtime never reached what the checks read \(a When step names no rule it checks\): boom/,
  );
  assert.deepEqual(coverageOf([result]).outcomes, { 'INB-10': 'not judged', 'INB-11': 'not judged' });
});

test("a failed check of one of the scenario's rules leaves unjudged the rule a later step would have checked", () => {
  const result = collect(scenario(1, 'FAILED', 'AssertionError', { 6: 'INB-10', 8: 'INB-11' }));
  assert.deepEqual(result.charged, ['INB-10']);
  assert.equal(result.held, undefined);
  assert.deepEqual(coverageOf([result]).outcomes, { 'INB-10': 'failed', 'INB-11': 'not judged' });
});

/**
 * A scenario that ran on past a failed check of step 1: the note, then the last step ending with
 * the earlier failure; the last step checks INB-11 whatever the checks above it found, or not.
 */
function ranOnPast(lastStep: 'held' | 'failed after' | 'failed apart', first = 'INB-10', last = 'INB-11'): Envelope[] {
  const envelopes = scenario(2, 'FAILED', 'EarlierCheckFailed', { 6: first, 8: last });
  const note = (step: string, reason: string) =>
    ({
      attachment: {
        testCaseStartedId: 'r',
        testStepId: step,
        mediaType: 'text/x.cucumber.log+plain',
        body: noteText({ kind: 'check failed', reason }),
      },
    }) as unknown as Envelope;
  const firstFinished = envelopes.findIndex((e) => e.testStepFinished?.testStepId === 'ts1');
  envelopes.splice(firstFinished, 0, note('ts1', 'expected 2 requests, saw 3'));
  const lastFinished = envelopes.findIndex((e) => e.testStepFinished?.testStepId === 'ts2');
  if (lastStep === 'failed apart') envelopes.splice(lastFinished, 0, note('ts2', 'the raw output is kept in a file'));
  if (lastStep === 'failed after')
    envelopes.splice(lastFinished, 0, {
      attachment: {
        testCaseStartedId: 'r',
        testStepId: 'ts2',
        mediaType: 'text/x.cucumber.log+plain',
        body: noteText({
          kind: 'not judged',
          reason: 'the tail is missing, after an earlier check failed',
        }),
      },
    } as unknown as Envelope);
  return envelopes;
}

test("a scenario that ran on past a failed check is that check's failure, and judges the later checks' rules", () => {
  const result = collect(ranOnPast('held'));
  assert.equal(result.status, 'failed');
  assert.equal(result.message, 'expected 2 requests, saw 3');
  assert.equal(result.step, 'When step 1 (line 7)');
  assert.deepEqual(result.charged, ['INB-10']);
  assert.deepEqual(result.held, ['INB-11']);
  assert.deepEqual(coverageOf([result]).outcomes, { 'INB-10': 'failed', 'INB-11': 'passed' });
});

test("a check that held after a precondition's failed check judges nothing, unless it says it reads what no check above is about", () => {
  const after = collect(ranOnPast('held', 'INB-07'));
  assert.deepEqual(after.charged, ['INB-07']);
  assert.equal(after.held, undefined);
  assert.deepEqual(coverageOf([after]).outcomes, {
    'INB-07': 'failed',
    'INB-10': 'not judged',
    'INB-11': 'not judged',
  });
  const apart = collect(ranOnPast('held', 'INB-07', '    # checks independently: INB-11'));
  assert.deepEqual(apart.held, ['INB-11']);
  assert.deepEqual(coverageOf([apart]).outcomes, { 'INB-07': 'failed', 'INB-10': 'not judged', 'INB-11': 'passed' });
});

test('a check that fails after an earlier failure leaves its rule not judged: it may fail for the first one', () => {
  const result = collect(ranOnPast('failed after'));
  assert.deepEqual(result.charged, ['INB-10']);
  assert.equal(result.message, 'expected 2 requests, saw 3');
  assert.equal(result.held, undefined);
  assert.deepEqual(coverageOf([result]).outcomes, { 'INB-10': 'failed', 'INB-11': 'not judged' });
});

test('a check that fails after an earlier failure, reading what no check above is about, fails its rule on its own evidence', () => {
  const result = collect(ranOnPast('failed apart', 'INB-10', '    # checks independently: INB-11'));
  assert.deepEqual(result.charged, ['INB-10']);
  assert.equal(result.message, 'expected 2 requests, saw 3');
  assert.deepEqual(result.alsoFailed, [
    { rules: ['INB-11'], step: 'Then step 2 (line 9)', message: 'the raw output is kept in a file' },
  ]);
  assert.deepEqual(coverageOf([result]).outcomes, { 'INB-10': 'failed', 'INB-11': 'failed' });
  assert.deepEqual(failureShown(result, 'INB-11'), {
    step: 'Then step 2 (line 9)',
    message: 'the raw output is kept in a file',
  });
  assert.deepEqual(failureShown(result, 'INB-10'), {
    step: 'When step 1 (line 7)',
    message: 'expected 2 requests, saw 3',
  });
});

test('a check that saw nothing real makes no pass of the other rules, even beside a failing check', () => {
  const envelopes = scenario(2, 'FAILED', 'AssertionError', { 6: 'INB-10', 8: 'INB-11' });
  const finished = envelopes.findIndex((e) => e.testCaseFinished);
  envelopes.splice(finished, 0, {
    attachment: {
      testCaseStartedId: 'r',
      mediaType: 'text/x.cucumber.log+plain',
      body: noteText({ kind: 'not judged', reason: 'nothing to see' }),
    },
  } as unknown as Envelope);
  const result = collect(envelopes);
  assert.equal(result.held, undefined);
  assert.deepEqual(coverageOf([result]).outcomes, { 'INB-10': 'not judged', 'INB-11': 'failed' });
});

test("a failed check without a comment is the scenario's rules' failure", () => {
  const result = collect(scenario(2, 'FAILED', 'AssertionError'));
  assert.equal(result.charged, undefined);
  assert.deepEqual(coverageOf([result]).outcomes, { 'INB-10': 'failed', 'INB-11': 'failed' });
});

test('a set-up step that fails checks no rule: the scenario is errored', () => {
  const result = collect(scenario(0, 'FAILED', 'AssertionError'));
  assert.equal(result.status, 'errored');
  assert.match(result.message!, /^set-up failed \(a Given step names no rule it checks\): boom/);
});

test('a not implemented, unsupported prerequisite or not driven step decides by its exception, wherever it is', () => {
  assert.equal(collect(scenario(0, 'FAILED', 'NotImplemented')).status, 'not implemented');
  const prerequisite = collect(scenario(2, 'FAILED', 'PrerequisiteUnsupported'));
  assert.deepEqual([prerequisite.status, prerequisite.reason], ['not judged', 'boom']);
  assert.equal(collect(scenario(2, 'FAILED', 'RuntimeNotDriven')).status, 'errored');
  assert.equal(collect(scenario(2, 'PASSED')).status, 'passed');
});
