import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { assertInputError, IGNORES_MESSAGE_IDS, kit, scratch, SIDE_BY_SIDE } from '../../kit-for-tests.js';

describe('kit replay', SIDE_BY_SIDE, () => {
  test('replaying a script prints what the model saw, turn by turn, and --out writes the projection', async () => {
    const out = join(scratch('replay'), 'steer.json');
    const run = await kit(['replay', 'fixtures/scripts/steer-mid-drain.json', '--out', out]);
    assert.equal(run.status, 0, run.stderr);
    assert.match(run.stdout, /^script: fixtures\/scripts\/steer-mid-drain\.json — A steer/);
    assert.match(run.stdout, /turn 1 · tools: [^\n]*\bgate\b[^\n]*\n {2}baseline:\n/);
    assert.match(
      run.stdout,
      /turn 2\n {2}┆ 1 message as in turn 1\n {2}assistant {2}→ gate \{"name":"g1"\} \[call_1\]\n {2}tool {7}\[call_1\] gate g1 opened\n {2}user {7}also this\n\n2 turn\(s\)\n$/,
    );
    assert.doesNotMatch(run.stdout, /kit-replay-/, 'the temporary directory is masked');
    const projection = JSON.parse(readFileSync(out, 'utf8'));
    assert.equal(projection.format, 'kit-projection/1');
    assert.deepEqual(
      projection.turns.map((turn: { kept: number; added: { role: string }[] }) => [
        turn.kept,
        turn.added.map((m) => m.role).join(' '),
      ]),
      [
        [0, 'user'],
        [1, 'assistant tool user'],
      ],
    );
  });

  test('--full lists every message of every turn', async () => {
    const run = await kit(['replay', 'fixtures/scripts/queue-mid-drain.json', '--full']);
    assert.equal(run.status, 0, run.stderr);
    assert.equal(run.stdout.match(/ user {7}start/g)?.length, 3);
    assert.doesNotMatch(run.stdout, /as in turn/);
  });

  test('a recording, a file write and a clock step replay through an adapter over stdio', async () => {
    const run = await kit([
      'replay',
      'fixtures/scripts/workspace-and-recording.json',
      '--adapter',
      'node --import tsx reference/adapter/stdio.ts',
    ]);
    assert.equal(run.status, 0, run.stderr);
    assert.match(
      run.stdout,
      /assistant {2}→ echo \{"text":"recorded"\} \[call_Qx3kz9\]\n {2}tool {7}\[call_Qx3kz9\] recorded/,
    );
  });

  test('a request the script gave no provider turn for ends the replay with exit 1', async () => {
    const script = join(scratch('replay'), 'short.json');
    writeFileSync(
      script,
      JSON.stringify({ format: 'kit-session-script/1', timeline: [{ step: 'prompt', text: 'hello' }] }),
    );
    const run = await kit(['replay', script]);
    assert.equal(run.status, 1);
    assert.match(
      run.stderr,
      /the provider received request 1 \(latest user message "hello"\), which no scripted turn answered/,
    );
  });

  test('a failed turn ends the replay with exit 1, listing the turns never requested and the failure the runtime recorded', async () => {
    const script = join(scratch('replay'), 'duplicate-call-ids.json');
    const call = (text: string) => ({ id: 'call_same', name: 'echo', input: { text } });
    const timeline = [
      { step: 'provider-tool-calls', calls: [call('a'), call('b')] },
      { step: 'provider-text', text: 'done' },
      { step: 'prompt', text: 'go' },
    ];
    writeFileSync(script, JSON.stringify({ format: 'kit-session-script/1', timeline }));
    const run = await kit(['replay', script]);
    assert.equal(run.status, 1);
    assert.match(
      run.stderr,
      /^kit: the provider turn of timeline\[1\] \(provider-text\) was never requested: the session stopped asking early$/m,
    );
    // A repeated call ID in one response is malformed provider output: the turn fails, recorded.
    assert.match(run.stderr, /^kit: the runtime recorded a failure: provider-error: .*"call_same"/m);
  });

  test('a gate the script never opens is named where the replay stops, once', async () => {
    const script = join(scratch('replay'), 'gate-never-opens.json');
    const timeline = [
      { step: 'provider-tool-calls', calls: [{ name: 'gate', input: { name: 'g1' } }] },
      { step: 'provider-text', text: 'done' },
      { step: 'prompt', text: 'go' },
    ];
    writeFileSync(script, JSON.stringify({ format: 'kit-session-script/1', timeline }));
    const run = await kit(['replay', script]);
    assert.equal(run.status, 1);
    assert.match(run.stderr, /^kit: the runtime failed at the final settle \(the script never opens gate "g1", /m);
    assert.doesNotMatch(run.stderr, /never requested/);
  });

  test('a runtime that fails a step ends the replay with exit 1, naming the step', async () => {
    const script = join(scratch('replay'), 'conflict.json');
    const prompt = (text: string) => ({ step: 'prompt', text, id: 'm1', resume: false });
    writeFileSync(script, JSON.stringify({ format: 'kit-session-script/1', timeline: [prompt('one'), prompt('two')] }));
    const run = await kit(['replay', script]);
    assert.equal(run.status, 1);
    assert.match(
      run.stderr,
      /^kit: the runtime failed at timeline\[1\] \(prompt\): prompt\.admit failed with conflict: /,
    );
  });

  test('a wait on a gate no call blocks on fails the replay at that step, naming the gate, in bounded time', async () => {
    const script = join(scratch('replay'), 'gate.json');
    const timeline = [
      { step: 'provider-text', text: 'done' },
      { step: 'prompt', text: 'start' },
      { step: 'run' },
      { step: 'wait-for-gate', gate: 'g9' },
    ];
    writeFileSync(script, JSON.stringify({ format: 'kit-session-script/1', timeline }));
    const run = await kit(['replay', script, '--timeout-scale', '0.1']);
    assert.equal(run.status, 1, run.stderr);
    // A wait goes on once more when the script's one turn is taken while it waits.
    assert.match(
      run.stderr,
      /^kit: the runtime failed at timeline\[3\] \(wait-for-gate\): the runtime did not reach a call of the gate tool blocked on the gate within (500|1000) ms \(gate\.wait \{"name":"g9"\}\)$/m,
    );
  });

  test('an adapter that cannot be driven ends the replay with exit code 4, naming the step', async () => {
    const run = await kit([
      'replay',
      'fixtures/scripts/steer-mid-drain.json',
      '--adapter',
      'node fixtures/adapters/misbehaving.mjs hang',
      '--timeout-scale',
      '0.1',
    ]);
    assert.equal(run.status, 4, run.stderr);
    assert.match(
      run.stderr,
      /^kit: the runtime failed at start-up \(hello, session\.create\): the runtime did not answer .* within 500 ms/m,
    );
  });

  test('a malformed script is an input error naming the file, line and field', async () => {
    const script = join(scratch('replay'), 'bad.json');
    writeFileSync(
      script,
      '{\n  "format": "kit-session-script/1",\n  "timeline": [\n    { "step": "prompt", "text": "hi", "delivery": "later" }\n  ]\n}\n',
    );
    assertInputError(
      await kit(['replay', script]),
      /bad\.json:4: timeline\[0\]\.delivery: must be one of steer, queue$/m,
    );
  });

  test('a script naming a recording that does not exist is an input error', async () => {
    const script = join(scratch('replay'), 'rec.json');
    writeFileSync(
      script,
      JSON.stringify({ format: 'kit-session-script/1', timeline: [{ step: 'provider-recording', name: 'nope' }] }),
    );
    assertInputError(
      await kit(['replay', script]),
      /rec\.json:1: timeline\[0\]\.name: recordings\/openai-chat\/nope: no recording named "nope"/,
    );
  });

  test('empty values, and outputs that cannot be written, are usage errors before anything runs', async () => {
    const script = 'fixtures/scripts/steer-mid-drain.json';
    const file = join(scratch('replay-outputs'), 'a-file');
    writeFileSync(file, '');
    const cases: [string[], RegExp][] = [
      [[''], /^kit: <file>: needs a value/],
      [[script, '--out', ''], /^kit: --out: needs a value/],
      [[script, '--keep', ''], /^kit: --keep: needs a value/],
      [[script, '--adapter', ''], /^kit: --adapter: needs a value/],
      [[script, '--runtime', ''], /^kit: --runtime: needs a value/],
      [[script, '--timeout-scale', '1e9'], /^kit: --timeout-scale: must be a number from 0\.1 to 100/],
      [[script, '--out', scratch('replay-out')], /^kit: --out: .* is a directory, not a file/],
      [[script, '--keep', file], /^kit: --keep: .*a-file is a file, not a directory/],
    ];
    const runs = await Promise.all(cases.map(([args]) => kit(['replay', ...args])));
    runs.forEach((run, i) => {
      assertInputError(run, cases[i]![1]);
      assert.equal(run.stdout, '');
    });
  });

  test('--debug shows the stack of an input error', async () => {
    const run = await kit(['replay', 'no-such-script.json', '--debug']);
    assert.equal(run.status, 2);
    assert.match(run.stderr, /^KitInputError: no-such-script\.json: no such file\n\s+at /);
  });

  const bundles = join(scratch('bundle-replay'), 'bundles');
  // One failing run writes the bundle the tests below replay; each waits for it.
  const failing = kit(['run', ...IGNORES_MESSAGE_IDS, '--bundles', bundles]);
  const bundle = join(bundles, 'inb-admission-4');

  test('a repro bundle runs no runtime it names unless the user names it again or trusts the bundle', async () => {
    assert.equal((await failing).status, 1);
    assertInputError(
      await kit(['replay', bundle]),
      /runtime: the bundle ran --runtime "fixtures\/runtimes\/ignores-message-ids\.ts"; name the runtime again \(--runtime \.\.\.\) or pass --trust-bundle/,
    );
  });

  test('a trusted repro bundle replays its scenario alone, against the runtime it failed on', async () => {
    await failing;
    const again = await kit(['replay', bundle, '--trust-bundle']);
    assert.equal(again.status, 1, again.stderr);
    assert.match(again.stdout, /^replaying inb-admission-4: \[4\] An exact retry/);
    assert.match(again.stdout, /runtime: fixtures\/runtimes\/ignores-message-ids\.ts/);
    assert.match(
      again.stdout,
      /conformance: 0 passed, 1 failed\ninb-admission-4 still fails\nkept: (\S+), the directories of 1 scenario\(s\)/,
    );
    // What it kept is listed where kit clean finds it.
    const [, keptIn] = /kept: (\S+),/.exec(again.stdout)!;
    assert.match(readFileSync(join(keptIn!, 'kept.txt'), 'utf8'), /^inb-admission-4\t/);
  });

  test('a repro bundle replays against another runtime when one is named', async () => {
    await failing;
    const fixed = await kit([
      'replay',
      join(bundle, 'bundle.json'),
      '--runtime',
      'reference/adapter/conformance-adapter.ts',
    ]);
    assert.equal(fixed.status, 0, fixed.stdout);
    assert.match(fixed.stdout, /inb-admission-4 passes now\n$/);
  });

  test('the options of a script replay are refused for a bundle', async () => {
    await failing;
    assertInputError(
      await kit(['replay', bundle, '--out', 'x.json']),
      /--out: applies to session scripts; a repro bundle reruns its scenario/,
    );
  });

  test("a bundle's runtime module that is gone is named as the bundle's, not as a flag's", async () => {
    const dir = scratch('bundle-gone');
    const scenario = { id: 'inb-admission-4', name: 'x', uri: 'features/x.feature', line: 1, rules: ['INB-02'] };
    writeFileSync(
      join(dir, 'bundle.json'),
      JSON.stringify({
        format: 'kit-repro-bundle/1',
        scenario,
        runtime: { module: 'gone.ts' },
        failure: 'f',
        sessions: [],
      }),
    );
    const run = await kit(['replay', dir, '--trust-bundle']);
    assertInputError(run, /^kit: .*bundle-gone-\w+: runtime: no runtime module at gone\.ts$/m);
    assert.equal(run.stdout, '');
  });

  test('a bundle whose index is malformed is an input error', async () => {
    const dir = scratch('bundle-bad');
    writeFileSync(
      join(dir, 'bundle.json'),
      JSON.stringify({ format: 'kit-repro-bundle/1', scenario: { id: 'x' } }, null, 2),
    );
    assertInputError(
      await kit(['replay', dir]),
      /bundle\.json:1: runtime: is required|bundle\.json:\d+: scenario\.name: is required/,
    );
  });
});
