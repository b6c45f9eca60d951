import { test } from 'node:test';
import assert from 'node:assert/strict';
import { settingsToEnvironment, suiteSettings } from './suite-settings.js';

test('the settings kit run writes are the settings the steps read', () => {
  const written = { runtime: { adapter: 'node adapter.js' }, timeoutScale: 2.5, validate: false, bundles: 'reports/b' };
  const read = suiteSettings(settingsToEnvironment(written));
  assert.deepEqual(
    { runtime: read.runtime, timeoutScale: read.timeoutScale, validate: read.validate, bundles: read.bundles },
    written,
  );
  const module = suiteSettings(
    settingsToEnvironment({ runtime: { module: '/r.ts' }, timeoutScale: 1, validate: true }),
  );
  assert.deepEqual([module.runtime, module.validate, module.bundles], [{ module: '/r.ts' }, true, undefined]);
});

test('a plain cucumber-js run gets the reference runtime, the defaults and the host settings', () => {
  const read = suiteSettings({ KIT_TMPDIR: '/dev/shm', KIT_DIALECT: 'anthropic-messages' });
  assert.match('module' in read.runtime ? read.runtime.module : '', /reference\/adapter\/conformance-adapter\.ts$/);
  assert.deepEqual([read.timeoutScale, read.validate, read.bundles], [1, true, undefined]);
  assert.deepEqual([read.scenarioRoot, read.dialect], ['/dev/shm', 'anthropic-messages']);
});
