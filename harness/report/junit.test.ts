import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { ScenarioResult } from './scenario-results.js';
import { junitReport } from './junit.js';

const result = (id: string, status: ScenarioResult['status'], extra: Partial<ScenarioResult> = {}): ScenarioResult => ({
  id,
  name: `scenario ${id}`,
  uri: 'features/inbox/Admission1.feature',
  line: 7,
  rules: ['INB-01'],
  area: 'inbox',
  status,
  ...extra,
});

test('the JUnit report gives each outcome its own element and type, counted per suite', () => {
  const xml = junitReport([
    result('a', 'passed'),
    result('b', 'failed', { message: 'AssertionError: "<x>" & \u0001', step: 'Then x (line 9)' }),
    result('c', 'not implemented', { message: 'NotImplemented: not implemented: inbox' }),
    result('d', 'errored', { message: 'RuntimeNotDriven: did not answer' }),
    result('e', 'not applicable', { reason: 'needs capability pty' }),
    result('f', 'not judged', { reason: 'no 25th turn' }),
  ]);
  assert.match(xml, /<testsuite name="inbox" tests="6" failures="2" errors="1" skipped="2">/);
  assert.match(xml, /<testcase [^>]*name="INB-01 scenario a \(@id:a\)"[^>]*\/>/);
  assert.match(xml, /<failure type="failed" message="&quot;&lt;x&gt;&quot; &amp; \ufffd">at: Then x \(line 9\)\n/);
  assert.match(xml, /<failure type="not implemented" /);
  assert.match(xml, /<error type="errored" message="did not answer">/);
  assert.match(xml, /<skipped message="not applicable: needs capability pty"\/>/);
  assert.match(xml, /<skipped message="not judged: no 25th turn"\/>/);
});
