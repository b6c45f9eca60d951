import { test } from 'node:test';
import assert from 'node:assert/strict';
import { runConformance } from './conformance-run.js';
import { kitPath } from '../kit-root.js';
import { REFERENCE_RUNTIME } from '../runtime-target.js';

const run = (selection: { tags?: string; ids?: string[] }) =>
  runConformance({
    runtime: { module: kitPath(REFERENCE_RUNTIME) },
    timeoutScale: 1,
    validate: true,
    formats: [],
    failFast: false,
    quiet: true,
    ...selection,
  });

// A run is handed only the feature files of its selection: none of a selection may be left out.
test('a selection spread over several feature files runs every scenario it selects, and no other', async () => {
  const selected = await run({ tags: '@INB-03 or @id:ins-files-2 or @id:rty-retry-client-error-1' });
  assert.deepEqual(selected.map((result) => result.id).sort(), [
    'inb-admission-10',
    'inb-admission-5/another-delivery',
    'inb-admission-5/another-prompt',
    'inb-admission-5/another-session',
    'inb-admission-conflict-resume-1',
    'ins-files-2',
    'rty-retry-client-error-1/401',
    'rty-retry-client-error-1/404',
    'rty-retry-client-error-1/422',
  ]);
  const rows = await run({ ids: ['rty-retry-client-error-1/404', 'inb-admission-5/another-prompt'] });
  assert.deepEqual(rows.map((result) => result.id).sort(), [
    'inb-admission-5/another-prompt',
    'rty-retry-client-error-1/404',
  ]);
});
