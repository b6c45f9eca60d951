import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { lintClauses, lintMutantClauses, readClauses } from './clauses.js';
import { readRuleIndex, readScenarios, type IndexedScenario } from './suite-index.js';

function indexOf(text: string) {
  const dir = mkdtempSync(join(tmpdir(), 'kit-clauses-'));
  try {
    writeFileSync(join(dir, 'index.md'), text);
    return readClauses(join(dir, 'index.md'));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const scenario = (id: string, rules: string[], rows: string[] = []): IndexedScenario => ({
  file: 'features/x/X1.feature',
  line: 3,
  name: '[1] x',
  ids: [id],
  rules,
  area: 'x',
  needs: [],
  tags: [],
  rows: rows.map((firstCell, i) => ({ firstCell, line: 10 + i, tags: [] })),
  steps: [],
});

test('the shipped clause table is whole: every rule has clauses, every ID a scenario, every tag a clause', () => {
  const problems = lintClauses(
    readClauses('rules/index.md'),
    readRuleIndex('rules/index.md'),
    readScenarios('features'),
  );
  assert.deepEqual(problems, []);
});

test("a rule's clauses are read with their scenarios, an outline's rows by their own IDs", () => {
  const index = indexOf(
    [
      '## INB',
      '- **INB-01** A rule.',
      '  - (a) One thing. Scenarios: `x-1`, `x-2/first`.',
      '  - (b) Another thing, with a period. in it. Scenarios: none.',
      '  - (c) A part of a command. About: `history.output-path`, `session.select.window`. Scenarios: `x-1`.',
      '- **INB-02** Another rule.',
      '',
    ].join('\n'),
  );
  assert.deepEqual(index.malformed, []);
  assert.deepEqual(
    index.clauses.map(({ rule, letter, text, scenarios, about }) => ({ rule, letter, text, scenarios, about })),
    [
      { rule: 'INB-01', letter: 'a', text: 'One thing', scenarios: ['x-1', 'x-2/first'], about: [] },
      { rule: 'INB-01', letter: 'b', text: 'Another thing, with a period. in it', scenarios: [], about: [] },
      {
        rule: 'INB-01',
        letter: 'c',
        text: 'A part of a command',
        scenarios: ['x-1'],
        about: ['history.output-path', 'session.select.window'],
      },
    ],
  );
  const problems = lintClauses(
    index,
    ['INB-01', 'INB-02'],
    [scenario('x-1', ['INB-01']), scenario('x-2', ['INB-01'], ['first'])],
  );
  assert.deepEqual(problems, ['rules/index.md: INB-02 lists no clause']);
});

test('a malformed clause, a letter out of order, an unknown ID and a tag no clause lists are each refused with the line', () => {
  const index = indexOf(
    ['- **INB-01** A rule.', '  - (a) One thing. Scenarios: x-1.', '  - (c) Another thing. Scenarios: `x-9`.', ''].join(
      '\n',
    ),
  );
  assert.deepEqual(lintClauses(index, ['INB-01'], [scenario('x-1', ['INB-01'])]), [
    'rules/index.md:2: a clause reads "  - (a) <text>. Scenarios: `<id>`, `<id>`." or "... Scenarios: none."',
    "rules/index.md:3: INB-01's clause (c) should be (a)",
    'rules/index.md:3: no scenario or example row has the ID x-9',
    'features/x/X1.feature:3: @INB-01 is on a scenario no clause of INB-01 lists (rules/index.md): list it under the clause it checks, or take the tag off',
  ]);
});

test("a clause listing a scenario, or an outline's row, that neither carries the rule's tag nor names it in a step's checks is refused", () => {
  const index = indexOf(
    [
      '- **INB-01** A rule.',
      '  - (a) One thing. Scenarios: `x-1`, `x-2`, `x-3`, `x-4/first`.',
      '- **INB-02** Another rule.',
      '  - (a) Another thing. Scenarios: `x-1`, `x-2/first`, `x-3`, `x-4/first`.',
      '',
    ].join('\n'),
  );
  const named = (id: string, rules: string[], checks: string[], rows: string[] = []): IndexedScenario => ({
    ...scenario(id, rules, rows),
    steps: [{ kind: 'Outcome', line: 5, text: 'x', named: checks }],
  });
  assert.deepEqual(
    lintClauses(
      index,
      ['INB-01', 'INB-02'],
      [
        scenario('x-1', ['INB-01', 'INB-02']),
        named('x-2', ['INB-01'], ['INB-01', 'INB-02'], ['first']),
        scenario('x-3', ['INB-01']),
        named('x-4', ['INB-01'], ['INB-01'], ['first']),
      ],
    ),
    [
      "rules/index.md:4: INB-02's clause (a) lists x-3, which neither carries @INB-02 nor names INB-02 in a step's `# checks:`: name INB-02 above the step whose assertion checks the clause, or take x-3 off the clause",
      "rules/index.md:4: INB-02's clause (a) lists x-4/first, which neither carries @INB-02 nor names INB-02 in a step's `# checks:`: name INB-02 above the step whose assertion checks the clause, or take x-4/first off the clause",
    ],
  );
});

test("a step's checks naming a rule none of whose clauses lists the scenario is refused with the step's line", () => {
  const index = indexOf(
    [
      '- **INB-01** A rule.',
      '  - (a) One thing. Scenarios: `x-1`, `x-2`.',
      '- **INB-02** Another rule.',
      '  - (a) Another thing. Scenarios: `x-2`.',
      '',
    ].join('\n'),
  );
  const checking = (id: string, checks: string[]): IndexedScenario => ({
    ...scenario(id, ['INB-01']),
    steps: [{ kind: 'Outcome', line: 7, text: 'x', named: checks }],
  });
  assert.deepEqual(
    lintClauses(index, ['INB-01', 'INB-02'], [checking('x-1', ['INB-01', 'INB-02']), checking('x-2', ['INB-02'])]),
    [
      'features/x/X1.feature:7: `# checks: INB-02` names a rule no clause of which lists x-1 (rules/index.md): list it under the clause the step checks, or take INB-02 off the step',
    ],
  );
});

test('a mutant naming a clause the table does not have is refused with its line; a kit without mutants has none to check', () => {
  const index = indexOf(['## INB', '- **INB-01** A rule.', '  - (a) One thing. Scenarios: `x-1`.', ''].join('\n'));
  const dir = mkdtempSync(join(tmpdir(), 'kit-mutants-'));
  try {
    writeFileSync(
      join(dir, 'inbox.ts'),
      ["  { name: 'x',", "    clauses: ['INB-01 (a)', 'INB-01 (b)'],", "    clauses: ['INB-01(a)'] },", ''].join('\n'),
    );
    assert.deepEqual(lintMutantClauses(index, dir), [
      'selfcheck/mutants/inbox.ts:2: a mutant names "INB-01 (b)", which is no clause of rules/index.md (written "INB-01 (a)")',
      'selfcheck/mutants/inbox.ts:3: a mutant names "INB-01(a)", which is no clause of rules/index.md (written "INB-01 (a)")',
    ]);
    assert.deepEqual(lintMutantClauses(index, join(dir, 'absent')), []);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
