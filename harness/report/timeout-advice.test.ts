import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { ScenarioResult } from './scenario-results.js';
import { judge } from './verdict.js';
import { formatSummary, notDrivenSummary } from './summary.js';
import { timeoutAdvice } from './timeout-advice.js';

const errored = (id: string, message: string): ScenarioResult => ({
  id,
  name: `[1] ${id}`,
  uri: 'features/inbox/X1.feature',
  line: 3,
  rules: ['INB-01'],
  area: 'inbox',
  status: 'errored',
  message: `RuntimeNotDriven: ${message}`,
});
const passed = (id: string): ScenarioResult => ({ ...errored(id, ''), status: 'passed', message: undefined });

test('a run whose hellos went unanswered names flushing and a slow start once, and the --timeout-scale to try', () => {
  const results = [1, 2, 3].map((i) => errored(`s${i}`, 'the runtime did not answer hello within 60000 ms'));
  const text = notDrivenSummary(results, 'python3 mine.py')!;
  assert.equal(text.match(/Likely causes/g)?.length, 1);
  assert.match(
    text,
    /\ntimeouts: the runtime did not answer in time \(hello in 3 scenario\(s\)\)\. Likely causes: the adapter does not flush its output after each reply .*, or the runtime starts slowly\. --timeout-scale 3 gives every start and command 3 times the time this run had\.$/,
  );
});

test('slow commands in several scenarios get one line, after the failures, with the scale that gives more time', () => {
  const message = 'the runtime did not answer session.create {"id":"s1"} within 10000 ms';
  const results = [passed('a'), ...[1, 2, 3, 4].map((i) => errored(`s${i}`, message))];
  const text = formatSummary(results, 'rt', judge(results));
  assert.equal(text.match(/Likely causes/g)?.length, 1);
  assert.match(
    text,
    /\(@id:s4\)\n.*\n\ntimeouts: the runtime did not answer in time \(session\.create in 4 scenario\(s\)\)\. Likely causes: the runtime is slow to answer .*--timeout-scale 6 gives every start and command 3 times the time this run had\.\n\nconformance:/,
  );
});

test('no timeout, no advice; at the largest scale the advice says more time will not help', () => {
  assert.equal(timeoutAdvice([passed('a'), errored('b', 'the adapter exited with code 1')]), undefined);
  assert.match(
    timeoutAdvice([errored('b', 'the runtime did not answer inbox within 500000 ms')])!,
    /--timeout-scale 100, the most it allows, did not help: the runtime likely never answers\.$/,
  );
});

test('a run that gave up after its first scenarios says how many it tried, not how many were selected', () => {
  const tried = [1, 2, 3].map((i) => errored(`s${i}`, 'the runtime did not answer prompt.admit {} within 5000 ms'));
  const given = [4, 5].map((i) =>
    errored(`s${i}`, 'not run: the runtime could not be driven in any of the first 3 scenarios'),
  );
  // A scenario set aside for a capability the runtime lacks tells nothing of driving it.
  const aside = { ...errored('s0', ''), status: 'not applicable' as const, message: undefined };
  assert.match(
    notDrivenSummary([aside, ...tried, ...given], 'rt')!,
    /^errored: rt could not be driven in any of the 3 scenario\(s\) it tried \(the other 2 were not run\), so no rule got a verdict: the runtime did not answer prompt\.admit/,
  );
});
