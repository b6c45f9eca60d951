import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { kit, SIDE_BY_SIDE } from '../../kit-for-tests.js';

// The kit judges what it observes, not what a runtime says of itself: a runtime whose views tell
// the right story while it does something else fails.

describe('kit run, judging what it observes', SIDE_BY_SIDE, () => {
  test('a runtime that retries at once while it reports the right schedule fails RTY-01', async () => {
    const run = await kit(['run', '--runtime', 'fixtures/runtimes/retries-at-once.ts', '--rule', 'RTY-01'], {
      REFERENCE_PROFILE: 'sol',
    });
    assert.equal(run.status, 1, run.stdout + run.stderr);
    assert.match(run.stdout, /rules: 0 passed, 1 failed \(RTY-01\)/);
    assert.match(
      run.stdout,
      /the delays the kit measured .*: expected \[\{"retry":"1","seconds":"3"\}\], saw \[\{"retry":"1","seconds":"0"\}\]/,
    );
  });

  test('a runtime whose epoch view is not the baseline it sent fails EPO-05', async () => {
    const run = await kit(['run', '--runtime', 'fixtures/runtimes/epoch-view-rerendered.ts', '--rule', 'EPO-05']);
    assert.equal(run.status, 1, run.stdout + run.stderr);
    assert.match(run.stdout, /rules: 0 passed, 1 failed \(EPO-05\)/);
  });
});
