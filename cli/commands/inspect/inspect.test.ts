import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { assertInputError, kit, scratch, SIDE_BY_SIDE } from '../../kit-for-tests.js';

const kept = join(scratch('inspect'), 'replay');
const replayed = await kit(['replay', 'fixtures/scripts/steer-mid-drain.json', '--keep', kept]);

describe('kit inspect', SIDE_BY_SIDE, () => {
  test('a replay can keep its store, and --keep refuses a directory in use', async () => {
    assert.equal(replayed.status, 0, replayed.stderr);
    assertInputError(
      await kit(['replay', 'fixtures/scripts/steer-mid-drain.json', '--keep', kept]),
      /--keep: .* is not empty/,
    );
  });

  test("inspect shows a store's sessions, events, inbox and history as tables", async () => {
    const run = await kit(['inspect', join(kept, 'store')]);
    assert.equal(run.status, 0, run.stderr);
    assert.match(run.stdout, /^store: .*runtime\.sqlite · 1 session\(s\)\n\nsession s1\n/);
    assert.match(
      run.stdout,
      /\nevents \(\d+\)\n {2}seq +at +type +data\n {2}1 +2026-01-15T09:00:00\.000Z +session\.created /,
    );
    assert.match(
      run.stdout,
      /\ninbox \(2\)\n {2}message +delivery +admitted +promoted +prompt\n {2}msg_0_0001 +steer +\d+ +\d+ +start\n/,
    );
    assert.match(
      run.stdout,
      /\nhistory \(5\)\n(.*\n){3} {2}\d+ +tool +success +gate\(\{"name":"g1"\}\) → gate g1 opened\n/,
    );
    assert.match(
      run.stdout,
      /\ncontext epoch\n {2}baseline:\n {4}│ Here is some useful information about the environment you are running in:\n {4}│ <env>\n/,
    );
  });

  test('inspect --json gives every column, one session with --session', async () => {
    const run = await kit(['inspect', join(kept, 'store', 'runtime.sqlite'), '--json', '--session', 's1']);
    assert.equal(run.status, 0, run.stderr);
    // The directory `kit replay --keep` was given reads the same store.
    assert.equal((await kit(['inspect', kept, '--json', '--session', 's1'])).stdout, run.stdout);
    const [session] = JSON.parse(run.stdout).sessions;
    assert.equal(session.id, 's1');
    assert.deepEqual(
      session.inbox.map((row: { prompt: { parts: { text: string }[] } }) => row.prompt.parts[0]!.text),
      ['start', 'also this'],
    );
    assert.equal(session.history.at(-1).body.text, 'done');
  });

  test('an unknown session and a file that is no store are input errors', async () => {
    assertInputError(
      await kit(['inspect', join(kept, 'store'), '--session', 'nobody']),
      /--session: the store has no session "nobody"/,
    );
    const text = join(scratch('inspect'), 'runtime.sqlite');
    writeFileSync(text, 'not a database at all');
    assertInputError(await kit(['inspect', text]), /runtime\.sqlite: not a SQLite database/);
    assertInputError(await kit(['inspect', join(kept, 'nothing-here')]), /nothing-here: no such file/);
    // What a run against another runtime kept: a scenario directory whose store is that runtime's own.
    const other = join(scratch('inspect'), 'other-run');
    mkdirSync(join(other, 'kit-Steer1-7-aB3dE9', 'workspaces', '.store', 'sessions'), { recursive: true });
    writeFileSync(join(other, 'kept.txt'), 'kit-Steer1-7-aB3dE9\n');
    for (const path of [
      other,
      join(other, 'kept.txt'),
      join(other, 'kit-Steer1-7-aB3dE9'),
      join(other, 'kit-Steer1-7-aB3dE9', 'workspaces', '.store'),
    ])
      assertInputError(await kit(['inspect', path]), /kit-Steer1-7-aB3dE9\/workspaces\/\.store: is no reference store/);
  });

  test('an empty store path or session is a usage error naming it', async () => {
    const runs = await Promise.all([
      kit(['inspect', '']),
      await kit(['inspect', join(kept, 'store'), '--session', '']),
    ]);
    assertInputError(runs[0]!, /^kit: <store>: needs a value/);
    assertInputError(runs[1]!, /^kit: --session: needs a value/);
  });
});
