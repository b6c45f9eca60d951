import { test } from 'node:test';
import assert from 'node:assert/strict';
import { TimeLedger } from '../driver/time-spent.js';
import type { ScenarioResult } from './scenario-results.js';
import { timeBreakdown } from './time-breakdown.js';

test('the kit part is what no other part claimed; a failed measure counts where its error says', async () => {
  // A clock the works below move, so that every part is known to the millisecond.
  let now = 0;
  const takes = (ms: number) => {
    now += ms;
  };
  const ledger = new TimeLedger(() => now);
  ledger.add('starts and stops', 1000);
  ledger.add('awaiting idleness', 500);
  await assert.rejects(
    ledger.measure(
      (error) => (error ? 'waits ended by timeout' : 'other commands'),
      async () => {
        takes(30);
        throw new Error('late');
      },
    ),
  );
  await ledger.measure('other commands', async () => takes(20), 'session.create');
  await ledger.measure('other awaited states', async () => {
    takes(5);
    await ledger.measure('other commands', async () => takes(100), 'gate.wait');
  });
  const spent = ledger.close(2000, 40, 3);
  assert.deepEqual(spent.commands, { 'session.create': 20 });
  assert.equal(spent.parts['starts and stops'], 1000);
  assert.equal(spent.parts['waits ended by timeout'], 30);
  assert.equal(spent.parts['other commands'], 20);
  // A command inside a measured wait counts once, in the wait.
  assert.equal(spent.parts['other awaited states'], 105);
  assert.equal(spent.parts.kit, 2000 - 1000 - 500 - 30 - 20 - 105);
  assert.deepEqual([spent.total, spent.retrySleeps, spent.providerTurns], [2000, 40, 3]);
});

const timed = (id: string, total: number, idle: number): ScenarioResult => ({
  id,
  name: id,
  uri: 'features/x/X1.feature',
  line: 1,
  rules: ['RUN-01'],
  area: 'runner',
  status: 'passed',
  time: {
    total,
    parts: {
      'starts and stops': total - idle,
      'awaiting idleness': idle,
      'other awaited states': 0,
      'waits ended by timeout': 0,
      'other commands': 0,
      kit: 0,
    },
    retrySleeps: 0,
    providerTurns: 2,
    commands: {},
  },
});

test('the breakdown sums the parts over scenarios and lists the slowest first with their largest parts', () => {
  const lines = timeBreakdown(
    [timed('fast', 1000, 200), timed('slow', 4000, 3000), { ...timed('untimed', 0, 0), time: undefined }],
    1,
  );
  assert.equal(lines[0], 'time spent in 2 scenarios: 5.0 s (summed over shards), 4 provider turns');
  assert.match(lines.find((l) => l.includes('starts and stops'))!, /1\.8 s\s+36%$/);
  assert.match(lines.find((l) => l.includes('awaiting idleness'))!, /3\.2 s\s+64%$/);
  assert.deepEqual(lines.slice(-2), [
    'slowest scenarios:',
    '     4.0 s  slow: awaiting idleness 3.0 s, starts and stops 1.0 s',
  ]);
  assert.deepEqual(timeBreakdown([]), []);
  const starting = timed('starting', 2000, 0);
  starting.time!.parts['other commands'] = 1800;
  starting.time!.commands = { 'session.create': 1700, history: 100 };
  assert.ok(timeBreakdown([starting]).includes('    of which session.create 1.7 s, history 0.1 s'));
});
