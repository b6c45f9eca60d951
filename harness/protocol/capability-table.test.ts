import { test } from 'node:test';
import assert from 'node:assert/strict';
import { CAPABILITIES } from './capabilities.js';
import {
  checkCapabilityTable,
  checkUnsupported,
  commandsAnsweredUnsupported,
  readCapabilityTable,
} from './capability-table.js';

const COMMANDS = ['hello', 'session.create', 'prompt.admit', 'session.move', 'clock.set', 'retry.wait'];

function readme(rows: string[]): string {
  return [
    '# An adapter',
    '',
    '## What the adapter drives',
    '',
    '| command or capability | how |',
    '| --- | --- |',
    ...rows,
    '',
    '## Next',
  ].join('\n');
}

const capabilityRows = CAPABILITIES.map((name) =>
  name === 'restart'
    ? `| \`${name}\` | through a new process over the same store |`
    : `| \`${name}\` | absent in 1.0: no such thing |`,
);

test('a table with a row per command and capability, as the handshake says, has no problem', () => {
  const table = readCapabilityTable(
    readme([
      '| `session.create` | emulated: the adapter maps IDs |',
      '| `prompt.admit` | through POST /prompt; not wired: steering, through /steer |',
      '| `session.move` | not wired: the route /move |',
      ...capabilityRows,
    ]),
    'README.md',
  );
  const problems = checkCapabilityTable(
    table,
    'README.md',
    { capabilities: ['restart'], emulated: { 'session.create': 'maps IDs' } },
    COMMANDS,
  );
  assert.deepEqual(problems, []);
  assert.deepEqual(checkUnsupported(table, 'README.md', new Set(['session.move', 'prompt.admit', 'clock.set'])), []);
});

test('a missing or doubled row, a declared capability written absent, an emulated name not written so, each say where', () => {
  const table = readCapabilityTable(
    readme([
      '| `session.create` | through the adapter |',
      '| `session.create` | through the runtime |',
      '| `session.fork` | through /fork |',
      '| `session.move` | maybe |',
      ...capabilityRows,
    ]),
    'README.md',
  );
  assert.deepEqual(
    checkCapabilityTable(
      table,
      'README.md',
      { capabilities: ['restart', 'virtual-clock'], emulated: { 'session.create': 'maps IDs' } },
      COMMANDS,
    ),
    [
      'README.md:10: a row reads "| `<name>` | through …, emulated: …, absent in <version>: … or not wired: … |"',
      'README.md: `session.create` has 2 rows',
      'README.md: `prompt.admit` has no row',
      'README.md: `session.move` has no row',
      'README.md:9: `session.fork` is no protocol command or capability the table lists',
      `README.md:${10 + CAPABILITIES.indexOf('virtual-clock') + 1}: \`virtual-clock\` is declared in the handshake but written absent`,
      "README.md: `session.create` is in the handshake's emulated list but its row is not written emulated:",
    ],
  );
  assert.deepEqual(checkUnsupported(table, 'README.md', new Set(['session.create'])), [
    'README.md:7: the adapter answered `session.create` unsupported, but `session.create` is written through with no refused case ("; not wired …" or "; absent in …")',
  ]);
});

test('the commands a run shows answered unsupported are read from the outcome notes', () => {
  assert.deepEqual(
    [
      ...commandsAnsweredUnsupported([
        'NotImplemented: not implemented: session.move (the runtime answered unsupported: no move)',
        'PrerequisiteUnsupported: needs agent.define to set up or to look, which the runtime does not offer (the runtime answered unsupported: none)',
        'not implemented: the tool "read" (the runtime offers no such tool)',
      ]),
    ],
    ['session.move', 'agent.define'],
  );
});

test('an adapter README without the section says so', () => {
  assert.deepEqual(readCapabilityTable('# An adapter\n', 'a/README.md').problems, [
    'a/README.md: no section "## What the adapter drives"',
  ]);
});

test('a name the handshake calls absent is emulated or refused, and its row says where the runtime lacks it', () => {
  const table = (move: string) =>
    readCapabilityTable(
      readme([
        '| `session.create` | emulated: the adapter maps IDs; absent in 1.0: the runtime names sessions itself |',
        '| `prompt.admit` | through POST /prompt |',
        '| `prompt.admit.receipt` | emulated: echoes the ID |',
        `| \`session.move\` | ${move} |`,
        ...capabilityRows,
      ]),
      'README.md',
    );
  const emulated = { 'session.create': 'maps IDs', 'prompt.admit.receipt': 'echoes' };
  const check = (absent: string[], move = 'not wired: the route /move') =>
    checkCapabilityTable(table(move), 'README.md', { capabilities: ['restart'], emulated, absent }, COMMANDS);
  assert.deepEqual(check(['session.create']), []);
  assert.deepEqual(check(['session.move'], 'absent in 1.0: sessions stay where they began'), []);
  assert.deepEqual(check(['prompt.admit.receipt', 'session.move']), [
    'README.md: `prompt.admit.receipt` is in the handshake\'s absent list but its row says no "absent in <version>:"',
    "README.md: `session.move` is in the handshake's absent list but neither emulated nor written absent",
  ]);
});

test('a part of a command a rule is about has a row of its own, unless the adapter emulates the whole command', () => {
  const rows = [
    '| `session.create` | through the runtime |',
    '| `prompt.admit` | through POST /prompt |',
    '| `session.move` | not wired: the route /move |',
    ...capabilityRows,
  ];
  const commands = [...COMMANDS, 'prompt.admit.id'];
  const description = { capabilities: ['restart' as const] };
  assert.deepEqual(
    checkCapabilityTable(readCapabilityTable(readme(rows), 'README.md'), 'README.md', description, commands),
    ['README.md: `prompt.admit.id` has no row'],
  );
  const withPart = readme([...rows, '| `prompt.admit.id` | through the message ID the runtime keeps |']);
  assert.deepEqual(
    checkCapabilityTable(readCapabilityTable(withPart, 'README.md'), 'README.md', description, commands),
    [],
  );
  const wholeEmulated = readme(rows.map((row) => row.replace('through POST /prompt', 'emulated: the adapter answers')));
  assert.deepEqual(
    checkCapabilityTable(
      readCapabilityTable(wholeEmulated, 'README.md'),
      'README.md',
      { ...description, emulated: { 'prompt.admit': 'the adapter answers' } },
      commands,
    ),
    [],
  );
});
