import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { projectRequests } from '../../../harness/projection/projection.js';
import type { CapturedRequest, ModelVisibleMessage } from '../../../harness/provider/captured-request.js';
import { assertInputError, kit, scratch, SIDE_BY_SIDE } from '../../kit-for-tests.js';

const dir = scratch('diff');

/** Writes the projection of one conversation per turn, as `kit replay --out` would. */
function projection(name: string, ...turns: ModelVisibleMessage[][]): string {
  const requests = turns.map(
    (messages): CapturedRequest => ({
      index: 0,
      body: {},
      model: 'm',
      baseline: ['be brief'],
      messages,
      tools: ['echo'],
    }),
  );
  const file = join(dir, name);
  writeFileSync(
    file,
    JSON.stringify(projectRequests(requests, 'script.json', 'reference 0.1.0 (typescript)'), null, 2),
  );
  return file;
}

const user = (text: string): ModelVisibleMessage => ({ role: 'user', text });
const assistant = (text: string): ModelVisibleMessage => ({ role: 'assistant', text });
const steer = projection('steer.json', [user('start')], [user('start'), assistant('ok'), user('also this')]);
const queue = projection(
  'queue.json',
  [user('start')],
  [user('start'), assistant('ok')],
  [user('start'), assistant('ok'), assistant('done'), user('also this')],
);

describe('kit diff', SIDE_BY_SIDE, () => {
  test('equal projections exit 0', async () => {
    const run = await kit(['diff', steer, steer]);
    assert.equal(run.status, 0, run.stderr);
    assert.match(run.stdout, /equal: the model saw the same on every turn\n$/);
  });

  test('different projections exit 1, naming the first divergent turn and message with a diff', async () => {
    const run = await kit(['diff', steer, queue], { NO_COLOR: '' });
    assert.equal(run.status, 1, run.stderr);
    assert.match(
      run.stdout,
      /^a: .*steer\.json · reference 0\.1\.0 \(typescript\) · 2 turn\(s\)\nb: .*queue\.json · reference 0\.1\.0 \(typescript\) · 3 turn\(s\)\n/,
      run.stderr,
    );
    assert.match(run.stdout, /first difference: turn 2, message 3 \(user in a, none in b\)/);
    assert.match(run.stdout, /turn 2:\n {2}user {7}start\n {2}assistant {2}ok\n- user {7}also this\n/);
    assert.match(run.stdout, /turns that differ: 2-3 \(2 of 3\)\n$/);
    assert.doesNotMatch(run.stdout, /\x1b\[/, 'no colour when not on a terminal');
  });

  test('colour is used when forced, and NO_COLOR wins over it', async () => {
    const [forced, noColor, flag] = await Promise.all([
      kit(['diff', steer, queue], { FORCE_COLOR: '1', NO_COLOR: '' }),
      kit(['diff', steer, queue], { FORCE_COLOR: '1', NO_COLOR: '1' }),
      kit(['diff', steer, queue, '--no-color'], { FORCE_COLOR: '1', NO_COLOR: '' }),
    ]);
    assert.match(forced.stdout, /\x1b\[31m- user {7}also this\x1b\[39m/);
    assert.doesNotMatch(noColor.stdout, /\x1b\[/);
    assert.doesNotMatch(flag.stdout, /\x1b\[/);
  });

  test('--json gives the comparison to machines', async () => {
    const run = await kit(['diff', steer, queue, '--json']);
    assert.equal(run.status, 1);
    const json = JSON.parse(run.stdout);
    assert.equal(json.equal, false);
    assert.deepEqual(json.firstDifference, {
      turn: 2,
      part: 'messages',
      message: 3,
      a: { role: 'user', text: 'also this' },
      b: null,
    });
    assert.deepEqual(json.differingTurns, [2, 3]);
    assert.deepEqual([json.a.turns, json.b.turns], [2, 3]);
  });

  test('a misspelt option before the projections is named, not the projection it took as its value', async () => {
    assertInputError(
      await kit(['diff', '--jsno', steer, steer]),
      /^kit: --jsno: is not an option of this command \(did you mean --json\?\), and took ".*steer\.json" as its value/,
    );
  });

  test('a projection that is not one is an input error', async () => {
    const bad = join(dir, 'bad.json');
    writeFileSync(
      bad,
      '{\n  "format": "kit-projection/1",\n  "script": "s",\n  "runtime": "r",\n  "turns": [{ "turn": 1, "kept": -1, "added": [] }]\n}\n',
    );
    assertInputError(await kit(['diff', steer, bad]), /bad\.json:5: turns\[0\]\.kept: must be >= 0/);
    assertInputError(await kit(['diff', steer, join(dir, 'absent.json')]), /absent\.json: no such file/);
    assertInputError(
      await kit(['diff', steer, 'fixtures/scripts/queue-mid-drain.json']),
      /queue-mid-drain\.json:3: format: "kit-session-script\/1" is not a projection \(kit-projection\/1\): kit replay <script> --out/,
    );
  });

  test('an empty projection path is a usage error naming it', async () => {
    const runs = await Promise.all([kit(['diff', '', 'b.json']), kit(['diff', 'a.json', ''])]);
    assertInputError(runs[0]!, /^kit: <a>: needs a value/);
    assertInputError(runs[1]!, /^kit: <b>: needs a value/);
  });
});
