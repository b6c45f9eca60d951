import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  CAPABILITIES,
  OPTIONAL_CAPABILITIES,
  capabilityOfCommand,
  declares,
  neededCapabilities,
} from './capabilities.js';
import { PROTOCOL } from './protocol.js';
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

test("the reference's copy of the table refuses in neutral mode exactly the commands of optional capabilities", async () => {
  // The reference imports nothing from the kit and keeps its own copy of the table; it reads its
  // mode when loaded, so the environment is set first (each test file runs in its own process).
  process.env.REFERENCE_MEANS = 'neutral';
  process.env.REFERENCE_PROFILE = 'sol';
  const { createAdapter } = await import('../../reference/adapter/conformance-adapter.js');
  const dir = mkdtempSync(join(tmpdir(), 'kit-capabilities-'));
  // With a way to crash, as over stdio: in the kit's own process fault.crash is no command at all.
  const adapter = createAdapter({ crash: () => assert.fail('a refused fault.crash crashed the runtime') });
  try {
    const config = {
      storeDir: dir,
      provider: { dialect: 'openai-chat', baseUrl: 'http://127.0.0.1:9/v1', apiKey: 'k', model: 'm' },
      now: '2026-01-01T00:00:00Z',
      instance: 0,
      home: join(dir, 'home'),
      runDir: join(dir, 'run'),
    };
    assert.equal((await adapter.handle({ cmd: 'hello', protocol: PROTOCOL, config })).ok, true);
    const refused: string[] = [];
    for (const cmd of commands.filter((name) => name !== 'hello')) {
      // A refusal answers at once; other commands may wait for something that never happens here.
      const answer = await Promise.race([
        adapter.handle({ cmd }),
        new Promise<undefined>((settle) => setImmediate(() => setImmediate(() => settle(undefined)))),
      ]);
      if (answer && !answer.ok && /not offered in neutral mode/.test(answer.error.message)) refused.push(cmd);
    }
    const optional = CAPABILITIES.flatMap((capability) => [...OPTIONAL_CAPABILITIES[capability].commands]);
    assert.deepEqual(refused.sort(), optional.sort());
  } finally {
    adapter.terminate();
    rmSync(dir, { recursive: true, force: true });
  }
});
