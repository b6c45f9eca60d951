import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { covers, lintRuleSubjects, readRuleSubjects } from './rule-subjects.js';

test("a rule's subject line names protocol commands; a malformed line or an unknown name is a problem", () => {
  const file = join(mkdtempSync(join(tmpdir(), 'kit-subjects-')), 'index.md');
  writeFileSync(
    file,
    [
      '- **INB-13** `wake` contacts the provider only when it has input.',
      '  - About: `session.wake`.',
      '  - (a) A wake sends no request. Scenarios: none.',
      '- **INB-14** `interrupt` stops the drain.',
      '  - About: session.interrupt',
      '- **RUN-06** Durable events replay.',
      '  - About: `events.take`, `events.replay`.',
      '- **RUN-05** History follows durable event order.',
      '  - Rests on: `prompt.admit.held`, `session.wake`.',
    ].join('\n'),
  );
  const subjects = readRuleSubjects(file);
  assert.deepEqual(
    [...subjects.byRule],
    [
      ['INB-13', [{ name: 'session.wake', setUp: false }]],
      [
        'RUN-06',
        [
          { name: 'events.take', setUp: false },
          { name: 'events.replay', setUp: false },
        ],
      ],
      [
        'RUN-05',
        [
          { name: 'prompt.admit.held', setUp: true },
          { name: 'session.wake', setUp: true },
        ],
      ],
    ],
  );
  assert.deepEqual(lintRuleSubjects(subjects, new Set(['session.wake', 'events.take', 'prompt.admit'])), [
    'rules/index.md:5: a subject line reads "  - About: `<command>`, `<command>`." or "  - Rests on: `<command>`."',
    'rules/index.md: RUN-06 is about `events.replay`, which is no protocol command',
  ]);
});

test('an emulated command covers the parts of it a rule is about, an emulated part the command it is part of; another part or command nothing', () => {
  assert.equal(covers('prompt.admit', 'prompt.admit.receipt'), true);
  assert.equal(covers('prompt.admit.receipt', 'prompt.admit.receipt'), true);
  assert.equal(covers('prompt.admit.held', 'prompt.admit.receipt'), false);
  assert.equal(covers('session.wake.empty', 'session.wake'), true);
  assert.equal(covers('events', 'events.subscribe'), false);
  assert.equal(covers('session.w', 'session.wake'), false);
});
