import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { CapturedRequest, ModelVisibleMessage } from '../provider/captured-request.js';
import { projectRequests, turnStates, type Projection } from './projection.js';
import { compareProjections } from './projection-diff.js';
import { readProjection } from './projection-file.js';
import { ProjectionWriter } from './projection-writer.js';
import { formatMessage, renderRequest, requestExcerpt } from './render.js';

const user = (text: string): ModelVisibleMessage => ({ role: 'user', text });
const assistant = (text: string): ModelVisibleMessage => ({ role: 'assistant', text });

function request(messages: ModelVisibleMessage[], baseline = ['be brief'], tools = ['echo']): CapturedRequest {
  return { index: 0, body: {}, model: 'kit-model', baseline, messages, tools };
}

/** A projection of requests built from conversations, one per turn. */
const projection = (...turns: ModelVisibleMessage[][]): Projection =>
  projectRequests(
    turns.map((messages) => request(messages)),
    's.json',
    'r',
  );

test('each turn holds only what changed since the previous one', () => {
  const projected = projectRequests(
    [
      request([user('a')]),
      request([user('a'), assistant('b'), user('c')]),
      request([user('summary')], ['be brief', 'new']),
    ],
    's.json',
    'r',
  );
  assert.deepEqual(
    projected.turns.map(({ turn, kept, added, baseline, tools }) => ({
      turn,
      kept,
      added: added.map((m) => m.text),
      baseline,
      tools,
    })),
    [
      { turn: 1, kept: 0, added: ['a'], baseline: ['be brief'], tools: ['echo'] },
      { turn: 2, kept: 1, added: ['b', 'c'], baseline: undefined, tools: undefined },
      { turn: 3, kept: 0, added: ['summary'], baseline: ['be brief', 'new'], tools: undefined },
    ],
  );
});

test('turn states rebuild every turn in full', () => {
  // A state is updated in place, so each is read before the next.
  const states = Array.from(turnStates(projection([user('a')], [user('a'), assistant('b')], [user('x')])), (state) =>
    state.messages.map((m) => m.text).join(' '),
  );
  assert.deepEqual(states, ['a', 'a b', 'x']);
});

test('a rewrite masks text everywhere the model saw it', () => {
  const projected = projectRequests([request([user('cd /tmp/x1/w')], ['in /tmp/x1'])], 's', 'r', (text) =>
    text.replaceAll('/tmp/x1', '<dir>'),
  );
  assert.deepEqual(projected.turns[0]!.baseline, ['in <dir>']);
  assert.equal(projected.turns[0]!.added[0]!.text, 'cd <dir>/w');
});

test('equal projections compare equal', () => {
  const a = projection([user('a')], [user('a'), assistant('b')]);
  assert.deepEqual(compareProjections(a, structuredClone(a)), {
    equal: true,
    turns: { a: 2, b: 2 },
    first: undefined,
    differingTurns: [],
  });
});

test('the first divergent turn and message are named, and later turns that differ listed', () => {
  const a = projection(
    [user('a')],
    [user('a'), assistant('b'), user('c')],
    [user('a'), assistant('b'), user('c'), assistant('d')],
  );
  const b = projection([user('a')], [user('a'), assistant('B'), user('c')], [user('z')]);
  const comparison = compareProjections(a, b);
  assert.equal(comparison.equal, false);
  assert.deepEqual(comparison.differingTurns, [2, 3]);
  assert.equal(comparison.first?.part, 'messages');
  assert.equal(comparison.first?.turn, 2);
  assert.equal(comparison.first?.part === 'messages' && comparison.first.message, 2);
});

test('conversations that meet again after differing compare equal on that turn', () => {
  const a = projection([user('a')], [user('a'), assistant('b')], [user('s')]);
  const b = projection([user('a')], [user('a'), assistant('c')], [user('s')]);
  assert.deepEqual(compareProjections(a, b).differingTurns, [2]);
});

test('a different baseline is named before the messages', () => {
  const a = projectRequests([request([user('a')], ['one'])], 's', 'r');
  const b = projectRequests([request([user('a')], ['two'])], 's', 'r');
  assert.equal(compareProjections(a, b).first?.part, 'baseline');
});

test('a turn only one projection has is a difference', () => {
  const first = compareProjections(projection([user('a')]), projection([user('a')], [user('a'), assistant('b')])).first;
  assert.equal(first?.part === 'turn' && `${first.turn} ${first.onlyIn}`, '2 b');
});

test('a projection file whose turns do not chain is refused', (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'kit-projection-test-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const broken = projection([user('a')], [user('a'), assistant('b')]);
  broken.turns[1]!.kept = 5;
  writeFileSync(join(dir, 'p.json'), JSON.stringify(broken));
  assert.throws(
    () => readProjection(join(dir, 'p.json')),
    /p\.json: turns\[1\]: kept is 5, but the previous turn has 1 messages/,
  );
  writeFileSync(
    join(dir, 'q.json'),
    JSON.stringify({ ...broken, turns: [{ turn: 1, kept: 0, added: [{ role: 'user' }] }] }, null, 2),
  );
  assert.throws(() => readProjection(join(dir, 'q.json')), /q\.json:\d+: turns\[0\]\.added\[0\]\.text: is required/);
});

test('a request rendered for a failure: in full, headed by its number; its excerpt keeps the end of the conversation', () => {
  const conversation = ['one', 'two', 'three', 'four'].map(user);
  const rendered = renderRequest({ ...request(conversation, ['be brief\nand exact']), index: 2 }, 3);
  assert.deepEqual(rendered, [
    'request 2 of 3 · tools: echo',
    '  baseline:',
    '    │ be brief',
    '    │ and exact',
    '  user       one',
    '  user       two',
    '  user       three',
    '  user       four',
  ]);
  assert.deepEqual(requestExcerpt(rendered.join('\n'), 2), [
    'request 2 of 3 · tools: echo',
    '  baseline: 2 line(s)',
    '  ┆ 2 line(s) above',
    '  user       three',
    '  user       four',
  ]);
  // A request with no conversation says so, rather than ending at its heading.
  const empty = renderRequest({ ...request([], ['be brief']), index: 1 }, 1);
  assert.deepEqual(requestExcerpt(empty.join('\n')), [
    'request 1 of 1 · tools: echo',
    '  baseline: 1 line(s)',
    '  (no messages)',
  ]);
});

test('a projection written turn by turn is laid out as the whole would be, and appears only when ended', (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'kit-projection-test-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const cases: [string, Projection, boolean][] = [
    ['two.json', projection([user('a')], [user('a'), assistant('b\n"c"')]), true],
    ['none.json', projection(), true],
    ['unstarted.json', { ...projection(), runtime: 'a runtime that did not start' }, false],
  ];
  for (const [name, whole, begun] of cases) {
    const path = join(dir, 'out', name);
    const writer = new ProjectionWriter(path, whole.script);
    if (begun) writer.begin(whole.runtime);
    for (const turn of whole.turns) writer.turn(turn);
    assert.equal(existsSync(path), false, `${name} is not there before the end`);
    writer.end(whole.runtime);
    assert.equal(readFileSync(path, 'utf8'), `${JSON.stringify(whole, null, 2)}\n`, name);
  }
  const abandoned = new ProjectionWriter(join(dir, 'gone.json'), 's');
  abandoned.begin('r');
  abandoned.abandon();
  assert.equal(existsSync(join(dir, 'gone.json.partial')), false);
});

test('raw bytes a tool returned reach the rendered request as escapes, line breaks and tabs as they are', () => {
  const result: ModelVisibleMessage = {
    role: 'tool',
    toolCallId: 'r3',
    text: '\u0000\u0001\u0002 end\u001b[0m\nnext\tline',
  };
  assert.deepEqual(renderRequest(request([result], ['sys\r']), 1).slice(1), [
    '  baseline:',
    '    │ sys\\u000d',
    '  tool       [r3] \\u0000\\u0001\\u0002 end\\u001b[0m',
    '             next\tline',
  ]);
});

test('a message of no text at all is shown as empty, not as a blank line', () => {
  assert.deepEqual(formatMessage({ role: 'user', text: '' } as ModelVisibleMessage), ['user       (empty)']);
  assert.deepEqual(formatMessage({ role: 'user', text: 'hi' } as ModelVisibleMessage), ['user       hi']);
});
