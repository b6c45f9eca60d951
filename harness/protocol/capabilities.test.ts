import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  CAPABILITIES,
  OPTIONAL_CAPABILITIES,
  capabilityOfCommand,
  declares,
  isNotImplemented,
  neededCapabilities,
} from './capabilities.js';
import { protocolSchema } from './protocol-schema.js';

const commands = Object.keys(protocolSchema().$defs.commands);

test('every command an optional capability names is a command of the protocol', () => {
  const named = CAPABILITIES.flatMap((capability) => [...OPTIONAL_CAPABILITIES[capability].commands]);
  assert.deepEqual(
    named.filter((cmd) => !commands.includes(cmd)),
    [],
  );
  assert.equal(new Set(named).size, named.length, 'no command belongs to two capabilities');
});

test('the commands every profile requires stay required', () => {
  for (const cmd of [
    'hello',
    'session.create',
    'prompt.admit',
    'history',
    'inbox',
    'events',
    'epoch',
    'failures',
    'compaction.configure',
    'tool-output.configure',
  ]) {
    assert.equal(capabilityOfCommand(cmd), undefined, cmd);
  }
  assert.equal(capabilityOfCommand('clock.set'), 'virtual-clock');
});

test('a scenario names its needs in tags; a runtime declares what it has', () => {
  assert.deepEqual(neededCapabilities(['@INB-01', '@needs:pty', '@needs:restart']), ['pty', 'restart']);
  assert.equal(declares({ capabilities: ['pty'] }, 'pty'), true);
  assert.equal(declares({ capabilities: [] }, 'restart'), false);
});

test('a not implemented failure is recognized with or without the error name before it', () => {
  assert.equal(isNotImplemented('Error: not implemented: session.create (no)'), true);
  assert.equal(isNotImplemented('not implemented: inbox'), true);
  assert.equal(isNotImplemented('AssertionError: expected not implemented: x'), false);
});
