import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Command, Reply } from '../protocol/protocol.js';
import { AwaitedStateNotReached, RuntimeDriver, RuntimeTimeout } from './runtime-driver.js';
import { asNotDriven } from './runtime-fault.js';

/** A runtime that greets, creates sessions, and never answers anything else. */
const silentAfterCreate = {
  name: 'silent',
  start: async () => ({
    send: (command: Command): Promise<Reply> => {
      if (command.cmd === 'hello') {
        return Promise.resolve({
          seq: 0,
          ok: true,
          result: {
            protocol: 'session-runtime-adapter/1',
            runtime: { name: 'silent', version: '0', language: 'none' },
            profiles: ['core'],
            capabilities: [],
            texts: {},
          },
        } as Reply);
      }
      return new Promise<Reply>(() => {});
    },
    kill: () => Promise.resolve(),
  }),
};

const config = {
  storeDir: '/nonexistent',
  provider: { dialect: 'openai-chat' as const, baseUrl: 'http://127.0.0.1:9/v1', apiKey: 'k', model: 'm' },
  now: '2026-01-15T09:00:00.000Z',
  home: '/nonexistent',
  runDir: '/nonexistent',
};

test('a wait that ends at its deadline is the runtime never reaching the state, not a runtime the kit cannot drive', async () => {
  const driver = await RuntimeDriver.start(silentAfterCreate, config, { timeoutScale: 0.001, validate: false });
  const idle = await driver.idle('s1').catch((error: unknown) => error);
  assert.ok(idle instanceof AwaitedStateNotReached);
  assert.match(
    idle.message,
    /^the runtime did not reach the session to settle \(no active or scheduled drain\) within 5 ms/,
  );
  assert.equal(asNotDriven(idle), undefined);
  const inbox = await driver.inbox('s1').catch((error: unknown) => error);
  assert.ok(inbox instanceof RuntimeTimeout, 'a command that does not wait and is not answered is not driven');
  assert.ok(asNotDriven(inbox));
  await driver.stop();
});

test('a wait goes on while the runtime keeps taking scripted provider turns, up to a bound, and ends once it stops', async () => {
  // Every look at the runtime's progress finds one more scripted turn taken than the last.
  let requests = 0;
  const driver = await RuntimeDriver.start(silentAfterCreate, config, {
    timeoutScale: 0.002,
    validate: false,
    progress: () => requests++,
  });
  const still = await driver.idle('s1').catch((error: unknown) => error);
  assert.ok(still instanceof AwaitedStateNotReached);
  assert.match(still.message, /within 40 ms/, 'four timeouts in all while turns kept being taken');
  const stopped = await RuntimeDriver.start(silentAfterCreate, config, { timeoutScale: 0.002, validate: false });
  const idle = await stopped.idle('s1').catch((error: unknown) => error);
  assert.match((idle as Error).message, /within 10 ms/, 'one timeout when nothing moves');
  await driver.stop();
  await stopped.stop();
});

test("a hello left unanswered is named without the kit's configuration; another command with its arguments", async () => {
  const silent = {
    name: 'silent',
    start: async () => ({ send: () => new Promise<Reply>(() => {}), kill: async () => {} }),
  };
  const hello = await RuntimeDriver.start(silent, config, { timeoutScale: 0.001, validate: false }).catch(
    (error: unknown) => error,
  );
  assert.ok(hello instanceof RuntimeTimeout);
  assert.equal(hello.message, 'the runtime did not answer hello within 60 ms');
  const driver = await RuntimeDriver.start(silentAfterCreate, config, { timeoutScale: 0.001, validate: false });
  const inbox = await driver.inbox('s1').catch((error: unknown) => error);
  assert.equal((inbox as Error).message, 'the runtime did not answer inbox {"sessionId":"s1"} within 5 ms');
  await driver.stop();
});

test('an answer names what it emulated, of its own command or of another whose work it does', async () => {
  const hello = {
    seq: 0,
    ok: true,
    result: {
      protocol: 'session-runtime-adapter/1',
      runtime: { name: 'emulating', version: '0', language: 'none' },
      profiles: ['core'],
      capabilities: [],
      texts: {},
      emulated: { 'prompt.admit.queued': 'held by the adapter', 'session.wake.empty': 'sends nothing' },
    },
  } as Reply;
  const woken = { seq: 0, ok: true, result: {}, emulated: ['prompt.admit.queued'] } as Reply;
  const emulating = {
    name: 'emulating',
    start: async () => ({
      send: (command: Command): Promise<Reply> => Promise.resolve(command.cmd === 'hello' ? hello : woken),
      kill: () => Promise.resolve(),
    }),
  };
  const driver = await RuntimeDriver.start(emulating, config, { timeoutScale: 1, validate: false });
  await driver.wake('s1');
  assert.deepEqual([...driver.emulatedUsed], ['prompt.admit.queued']);
  await driver.stop();
});
