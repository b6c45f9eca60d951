import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Profile } from './profile.js';

test('a configuration that names no profile runs the core design alone', () => {
  for (const name of [undefined, '', 'core']) assert.deepEqual(Profile.parse(name).declared(), ['core']);
});

test('each add-on profile runs on the core design; checkpoint replaces it', () => {
  assert.deepEqual(Profile.parse('checkpoint').declared(), ['checkpoint']);
  assert.deepEqual(Profile.parse('sol').declared(), ['core', 'sol']);
  assert.deepEqual(Profile.parse('continuation').declared(), ['core', 'continuation']);
});

test('an unknown profile is refused rather than run as the core design', () => {
  assert.throws(() => Profile.parse('legacy'), /unknown profile "legacy"/);
  assert.throws(() => Profile.parse('toString'), /unknown profile/);
});

test('each profile answers only its own questions', () => {
  const core = Profile.parse('core');
  const checkpoint = Profile.parse('checkpoint');
  const sol = Profile.parse('sol');
  const continuation = Profile.parse('continuation');
  assert.equal(core.hashesSnapshot() || core.retriesProvider() || core.injectsContinuation(), false);
  assert.equal(core.checkpointForm(), 'summary-message');
  assert.equal(checkpoint.endsEpochOnSwitch() && checkpoint.discoversNestedInstructions(), true);
  assert.equal(checkpoint.prunesToolOutputs(), false);
  assert.equal(sol.detectsDoomLoops() && sol.offersInboxFreePrompts(), true);
  assert.equal(sol.checkpointForm(), 'trigger-answer');
  assert.equal(sol.keepsBaselineParts() || sol.injectsContinuation(), false);
  assert.equal(continuation.injectsContinuation(), true);
  assert.equal(continuation.continuesAfterCompaction() || continuation.separatesInstructionFiles(), false);
});
