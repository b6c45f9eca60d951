import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync } from 'node:fs';
import { kitPath } from '../kit-root.js';
import { readScenarios, stableIds, type IndexedScenario } from '../suite/suite-index.js';
import { readKnownFailures, type KnownFailure } from './known-failures.js';
import { staleQuotes } from './quoted-steps.js';

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

test("every adapter's baseline quotes the steps its scenarios have, where they have them", () => {
  const scenarios = readScenarios(kitPath('features'));
  const ids = new Set(scenarios.flatMap(stableIds));
  const problems = readdirSync(kitPath('adapters'))
    .map((runtime) => kitPath('adapters', runtime, 'known-failures.yaml'))
    .filter((file) => existsSync(file))
    .flatMap((file) => staleQuotes(readKnownFailures(file, ids), scenarios));
  assert.deepEqual(problems, []);
});
