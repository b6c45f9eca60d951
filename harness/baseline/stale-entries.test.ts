import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { kitPath } from '../kit-root.js';
import { readScenarios, stableIds, type IndexedScenario } from '../suite/suite-index.js';
import { readKnownFailures, type KnownFailure } from './known-failures.js';
import { staleComments, staleQuotes } from './stale-entries.js';

const scenario: IndexedScenario = {
  file: 'features/x.feature',
  line: 3,
  name: 'x',
  ids: ['inb-x'],
  rules: ['INB-01'],
  area: 'inbox',
  needs: [],
  tags: [],
  rows: [{ firstCell: 'two', line: 12, tags: [] }],
  steps: [
    { kind: 'Action', line: 5, text: 'the user steers "one"' },
    { kind: 'Outcome', line: 6, text: 'the provider received <count> requests' },
  ],
};

function stale(reason: string): string[] {
  const entry: KnownFailure = { class: 'deviation', reason };
  return staleQuotes({ file: 'known-failures.yaml', entries: new Map([['inb-x', entry]]) }, [scenario]);
}

test('a reason quoting a step where the scenario has it, an outline placeholder filled, is current', () => {
  assert.deepEqual(stale(`INB-01: at 'When the user steers "one" (line 5)': lost`), []);
  assert.deepEqual(stale(`INB-01: at 'Then the provider received 2 requests (line 6)': saw 3`), []);
});

test('a reason quoting a step that moved, or that the scenario no longer has, is named with where it is now', () => {
  assert.deepEqual(stale(`INB-01: at 'When the user steers "one" (line 4)': lost`), [
    `known-failures.yaml: inb-x quotes 'When the user steers "one"' at line 4: the step is at line 5 of features/x.feature now`,
  ]);
  assert.deepEqual(stale(`INB-01: at 'Then the provider received 2 requests (line 5)': saw 3`), [
    `known-failures.yaml: inb-x quotes 'Then the provider received 2 requests' at line 5: the step is at line 6 of features/x.feature now`,
  ]);
  assert.deepEqual(stale(`INB-01: at 'When the user queues "one" (line 5)': lost`), [
    `known-failures.yaml: inb-x quotes 'When the user queues "one"' at line 5: the scenario has no such step: say what fails now`,
  ]);
});

test('a comment that says where the scenario was is named, with what it says now', () => {
  const text = 'known-failures:\n  # INB-01 features/x.feature:2 x\n  inb-x:\n    class: deviation\n    reason: r\n';
  assert.deepEqual(staleComments('known-failures.yaml', text, [scenario]), [
    'known-failures.yaml: the comment above inb-x says "INB-01 features/x.feature:2 x", not "INB-01 features/x.feature:3 x"',
  ]);
  assert.deepEqual(staleComments('known-failures.yaml', text.replace(':2 x', ':3 x'), [scenario]), []);
});

test("every adapter's baseline quotes the steps its scenarios have, where they have them, and says where they are", () => {
  const scenarios = readScenarios(kitPath('features'));
  const ids = new Set(scenarios.flatMap(stableIds));
  const problems = readdirSync(kitPath('adapters'))
    .map((runtime) => kitPath('adapters', runtime, 'known-failures.yaml'))
    .filter((file) => existsSync(file))
    .flatMap((file) => [
      ...staleQuotes(readKnownFailures(file, ids), scenarios),
      ...staleComments(file, readFileSync(file, 'utf8'), scenarios),
    ]);
  assert.deepEqual(problems, [], 'tsx scripts/renumber-baselines.ts brings every line it can find up to date');
});
