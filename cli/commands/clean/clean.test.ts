import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { chownSync, existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { assertInputError, IGNORES_MESSAGE_IDS, kit, scratch, SIDE_BY_SIDE } from '../../kit-for-tests.js';

describe('what failed runs keep', SIDE_BY_SIDE, () => {
  test('one line points at the kept directory; kit inspect reads it, and kit clean removes it and nothing else', async () => {
    const root = scratch('kept');
    const env = { KIT_TMPDIR: root };
    // A run still going: its directory lists nothing kept yet.
    mkdirSync(join(root, 'kit-run-going', 'kit-Admission1-7-abc'), { recursive: true });
    const run = await kit(['run', ...IGNORES_MESSAGE_IDS], env);
    assert.equal(run.status, 1, run.stderr);
    const lines = run.stdout.split('\n').filter((line) => line.includes(root));
    assert.equal(lines.length, 1, run.stdout);
    const kept = /^kept: (\S+), the directories of 1 scenario\(s\) not as expected \(.*kit inspect .*kit clean/.exec(
      lines[0]!,
    )?.[1];
    assert.ok(kept, run.stdout);
    const [scenario] = readdirSync(kept).filter((name) => name.startsWith('kit-'));
    for (const path of [kept, join(kept, scenario!)]) {
      const inspected = await kit(['inspect', path], env);
      assert.equal(inspected.status, 0, inspected.stderr);
      assert.match(inspected.stdout, /^store: .*workspaces\/\.store\/runtime\.sqlite · 1 session\(s\)/);
    }
    const cleaned = await kit(['clean'], env);
    assert.equal(cleaned.status, 0, cleaned.stderr);
    assert.equal(cleaned.stdout, `removed 1 run directory kept for failed scenarios:\n  ${kept}\n`);
    assert.equal(existsSync(kept), false);
    assert.ok(existsSync(join(root, 'kit-run-going')), 'a run still going is left alone');
    assert.equal((await kit(['clean'], env)).stdout, `nothing kept by a failed run in ${root}\n`);
  });

  test("kit clean leaves another user's kept runs alone: a scenario root such as /dev/shm is shared", {
    skip: process.getuid?.() !== 0 && 'giving a directory to another user needs root',
  }, async () => {
    const root = scratch('shared');
    const others = join(root, 'kit-run-others');
    mkdirSync(others);
    writeFileSync(join(others, 'kept.txt'), '');
    chownSync(others, 4242, 4242);
    const cleaned = await kit(['clean'], { KIT_TMPDIR: root });
    assert.equal(cleaned.status, 0, cleaned.stderr);
    assert.ok(existsSync(others), cleaned.stdout);
  });

  test("kit inspect of a run's directory that keeps several scenarios names them in one line", async () => {
    const run = scratch('kit-run');
    for (const name of ['kit-A1-3-x', 'kit-B1-7-y'])
      mkdirSync(join(run, name, 'workspaces', '.store', 'runtime.sqlite'), { recursive: true });
    assertInputError(await kit(['inspect', run]), /keeps the directories of 2 scenarios: name one \(/);
  });
});
