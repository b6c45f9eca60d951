import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { IGNORES_MESSAGE_IDS, SIDE_BY_SIDE, assertInputError, kit, scratch } from '../../kit-for-tests.js';

/** Runs `kit run` as a user would, returning its exit code, output and JSON results. */
async function kitRun(args: string[], env: NodeJS.ProcessEnv = {}) {
  const results = join(scratch('run-test'), 'results.json');
  const run = await await kit(['run', ...args, '--results', results], env);
  const parsed = existsSync(results) ? JSON.parse(readFileSync(results, 'utf8')) : undefined;
  return { ...run, results: parsed };
}

describe('kit run', SIDE_BY_SIDE, () => {
  function runningProcessesMentioning(marker: string): number {
    if (!existsSync('/proc')) return 0;
    return readdirSync('/proc').filter((pid) => {
      try {
        return /^\d+$/.test(pid) && readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes(marker);
      } catch {
        return false;
      }
    }).length;
  }

  /** Tests on one machine run side by side: each adapter carries a token that names its own processes. */
  const token = (name: string) => `kit-test-${process.pid}-${name}`;
  const misbehaving = (mode: string) => [
    '--adapter',
    `node fixtures/adapters/misbehaving.mjs ${mode} ${token(mode)}`,
    '--rule',
    'INB-02',
    '--timeout-scale',
    '0.2',
  ];

  for (const [mode, report] of [
    ['hang', /did not answer .* within 1000 ms/],
    ['garbage', /the adapter wrote a line that is not JSON: this is not json/],
    ['die', /the adapter exited \(code 3\)[\s\S]*giving up on purpose/],
  ] as const) {
    test(`an adapter that does "${mode}" leaves its scenarios errored with that reason, with exit code 4`, async () => {
      const run = await kitRun(misbehaving(mode));
      assert.equal(run.status, 4, run.stderr);
      assert.equal(run.results.scenarios.length, 2);
      for (const scenario of run.results.scenarios) {
        assert.equal(scenario.status, 'errored');
        assert.match(scenario.message, report);
      }
      // Nothing was judged: one errored line with the first error, no rule table, no failure count;
      // timeouts add one line of likely causes for the run, and one line points at what it kept.
      assert.match(
        run.stdout,
        /^errored: .* could not be driven in any of the 2 selected scenarios, so no rule got a verdict: /,
      );
      const advice = run.stdout.split('\n').filter((line) => line.startsWith('timeouts: '));
      assert.equal(advice.length, mode === 'hang' ? 1 : 0, run.stdout);
      const kept = run.stdout.split('\n').filter((line) => / the directories of 2 scenario\(s\) /.test(line));
      assert.equal(kept.length, 1, run.stdout);
      assert.equal(run.stdout.split('\n').filter((line) => /^\S/.test(line)).length, 2 + advice.length, run.stdout);
      assert.doesNotMatch(run.stdout, /rules:|failed|^\s+at /m);
      assert.equal(runningProcessesMentioning(token(mode)), 0, 'no adapter process outlives the run');
    });
  }

  test('an adapter that floods stderr and never answers shows the tail of its stderr with the timeout', async () => {
    const run = await kitRun([
      '--adapter',
      'node fixtures/adapters/misbehaving.mjs flood',
      '--rule',
      'INB-01',
      '--timeout-scale',
      '0.2',
    ]);
    assert.equal(run.status, 4, run.stderr);
    const [first] = run.results.scenarios;
    assert.match(
      first.message,
      /did not answer [^\n]* within 1000 ms\nadapter stderr \(last lines\):\n(adapter: noise line \d+\n){19}adapter: noise line 5000\n/,
    );
  });

  test('nothing an adapter started outlives the run, even a process that left its group and session', async () => {
    const run = await kitRun([
      '--adapter',
      `node fixtures/adapters/misbehaving.mjs hang --setsid-child ${token('setsid')}`,
      '--rule',
      'INB-01',
      '--timeout-scale',
      '0.2',
    ]);
    assert.equal(run.results.scenarios.length, 2, run.stderr);
    assert.equal(runningProcessesMentioning(token('setsid')), 0);
  });

  test('Ctrl-C ends the run with exit 130 and one line saying so, leaving no files and no process behind', async () => {
    const root = scratch('interrupt');
    const run = spawn(
      process.execPath,
      [
        'cli/bin.js',
        'run',
        '--adapter',
        `node fixtures/adapters/misbehaving.mjs hang ${token('interrupt')}`,
        '--rule',
        'INB-01',
      ],
      { env: { ...process.env, KIT_TMPDIR: root, NO_COLOR: '1' }, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let stderr = '';
    run.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    const exited = once(run, 'exit');
    // Interrupted once the first scenario has made its directory and started its adapter.
    const started = () => readdirSync(root).some((run) => readdirSync(join(root, run)).length > 0);
    while (!started() || runningProcessesMentioning(token('interrupt')) === 0) await delay(20);
    run.kill('SIGINT');
    const [code] = await exited;
    assert.equal(code, 130, stderr);
    assert.match(
      stderr,
      /^kit: interrupted before the first scenario ended; nothing was judged, and the run's files are removed$/m,
    );
    assert.deepEqual(readdirSync(root), []);
    assert.equal(runningProcessesMentioning(token('interrupt')), 0);
  });

  test('an adapter that cannot be driven in the first scenarios fails the rest at once, without a timeout each', async () => {
    const scenarioRoot = scratch('early-stop');
    const run = await kitRun(
      [
        '--adapter',
        `node fixtures/adapters/misbehaving.mjs hang ${token('early-stop')}`,
        '--rule',
        'INB-01',
        'INB-02',
        'INB-03',
        '--timeout-scale',
        '0.2',
      ],
      { KIT_TMPDIR: scenarioRoot },
    );
    assert.equal(run.status, 4, run.stderr);
    const messages = run.results.scenarios.map((s: { message: string }) => s.message.split('\n')[0]);
    assert.ok(messages.length > 4);
    assert.deepEqual(
      messages.map((message: string) =>
        /did not answer/.test(message)
          ? 'timed out'
          : /not run: the runtime could not be driven in any of the first 3 scenarios/.test(message)
            ? 'not run'
            : message,
      ),
      [...Array(3).fill('timed out'), ...Array(messages.length - 3).fill('not run')],
    );
    // Only a scenario that ran has a working directory worth keeping, in the run's own directory.
    const [runDirectory, ...others] = readdirSync(scenarioRoot);
    assert.deepEqual(others, []);
    assert.equal(readdirSync(join(scenarioRoot, runDirectory!)).filter((name) => name !== 'kept.txt').length, 3);
    assert.equal(readFileSync(join(scenarioRoot, runDirectory!, 'kept.txt'), 'utf8').split('\n').length, 4);
  });

  const doesNothing = ['--adapter', 'node fixtures/adapters/does-nothing.mjs'];

  test('an adapter that implements nothing fails as not implemented; a scenario needing an optional capability gets no verdict', async () => {
    const run = await kitRun([...doesNothing, '--rule', 'INB-02', 'PTY-01']);
    assert.equal(run.status, 1, run.stdout + run.stderr);
    assert.deepEqual(run.results.coverage.notImplemented, ['INB-02']);
    assert.deepEqual(run.results.rules, { 'INB-02': 'not implemented', 'PTY-01': 'not applicable' });
    assert.deepEqual(run.results.coverage.withoutVerdict, { 'PTY-01': ['needs capability pty'] });
    assert.match(
      run.results.scenarios.find((s: { rules: string[] }) => s.rules.includes('INB-02')).message,
      /^NotImplemented: not implemented: session\.create/,
    );
    assert.match(
      run.stdout,
      /rules: 0 passed, 0 failed, 1 not implemented \(INB-02\), 1 not applicable\n {2}no verdict, needs capability pty: PTY-01\nverdicts: 1 of 2 rules \(50%\)/,
    );
  });

  test('a run where no selected rule gets a verdict fails and says so', async () => {
    const run = await kitRun([...doesNothing, '--rule', 'PTY-01']);
    assert.equal(run.status, 1, run.stdout + run.stderr);
    assert.match(run.stdout, /✖ no selected rule got a verdict/);
    assert.equal(run.results.passed, false);
  });

  test('--min-verdicts fails a run with fewer rules judged, and takes a percentage or a fraction, nothing ambiguous', async () => {
    const run = await kitRun(['--rule', 'INB-01', 'RTY-01', '--min-verdicts', '60%']);
    assert.equal(run.status, 1, run.stdout + run.stderr);
    assert.match(run.stdout, /✖ verdicts on 50% of the selected rules, below --min-verdicts 60%/);
    assert.equal((await kitRun(['--rule', 'INB-01', 'RTY-01', '--min-verdicts', '0.5'])).status, 0);
    assert.equal((await kitRun(['--rule', 'INB-01', 'RTY-01', '--min-verdicts', '0.51'])).status, 1);
    assertInputError(
      await kit(['run', '--min-verdicts', '120%']),
      /--min-verdicts: "120%" is not a share of rules: a percentage from 0% to 100%, or a fraction from 0 to 1/,
    );
    assertInputError(await kit(['run', '--min-verdicts', '50']), /--min-verdicts: "50" is ambiguous: write 50% /);
  });

  test('a rule ID that is not one, or that no scenario checks, is a usage error naming it', async () => {
    const run = await kitRun(['--rule', 'INB7']);
    assert.equal(run.status, 2);
    assert.match(run.stderr, /--rule: "INB7" is not a rule ID like INB-07/);
    assertInputError(
      await kit(['run', '--rule', 'INB-01', 'INB-99']),
      /^kit: --rule: no scenario of the suite checks INB-99 /,
    );
  });

  test('a KIT_DIALECT the kit does not speak, empty included, is one line naming it before anything runs', async () => {
    assertInputError(
      await kit(['run', '--rule', 'INB-01'], { KIT_DIALECT: '' }),
      /^kit: KIT_DIALECT: "" names no provider dialect of the kit \(openai-chat, /,
    );
  });

  test('an empty or missing value of any option, or an absurd one, is a usage error naming the flag', async () => {
    const empty = [
      '--adapter',
      '--runtime',
      '--baseline',
      '--markdown',
      '--junit',
      '--messages',
      '--html',
      '--badge',
      '--results',
      '--bundles',
      '--format',
      '--tags',
      '--rule',
    ];
    const cases: [string[], RegExp][] = [
      ...empty.map((flag): [string[], RegExp] => [[flag, ''], new RegExp(`^kit: ${flag}: needs a value`)]),
      [['--rule'], /^kit: --rule: needs at least one value/],
      [['--format'], /^kit: --format: needs at least one value/],
      [['--markdown'], /^kit: --markdown: needs a value/],
      [['--format', 'json:'], /^kit: --format: "json:" names no file after the colon/],
      [['--format', ':x'], /^kit: --format: ":x" names no format before the colon/],
      [['--format', '.'], /^kit: --format: "\." is neither a Cucumber format/],
      [['--format', 'no-such-format'], /^kit: --format: "no-such-format" is neither a Cucumber format \(html, junit/],
      ...['0', '0.05', '101', 'Infinity', 'NaN', '-1', 'abc'].map((scale): [string[], RegExp] => [
        ['--timeout-scale', scale],
        /^kit: --timeout-scale: must be a number from 0\.1 to 100/,
      ]),
      [['--timeout-scale'], /^kit: --timeout-scale: needs a value/],
      [['--format', 'json:  '], /^kit: --format: "json: {2}" names no file after the colon/],
      [['--no-such-option=1'], /^kit: --no-such-option: is not an option of this command/],
      [
        ['--results', `/tmp/${'n'.repeat(300)}.json`],
        /^kit: --results: \/tmp\/n+\.json cannot be written here \(ENAMETOOLONG/,
      ],
      [['--runtime', 'docs'], /^kit: --runtime: docs is a directory/],
      [['--rulee', 'INB-07'], /^kit: --rulee: is not an option of this command \(did you mean --rule\?\)/],
      [['--no-validat'], /^kit: --no-validat: is not an option of this command \(did you mean --no-validate\?\)/],
      [['--rule', 'inb-7'], /^kit: --rule: "inb-7" is not a rule ID like INB-07 \(did you mean INB-07\?\)/],
      [
        ['--rule', 'INB-99'],
        /^kit: --rule: no scenario of the suite checks INB-99 \(did you mean one of INB-01 to INB-\d\d\?\)/,
      ],
      [['--shard', '-1/2'], /^kit: --shard: "-1\/2" is not a shard like 2\/3/],
      ...['(', 'and', 'not', '@a or or @b', '\\'].map((tags): [string[], RegExp] => [
        ['--tags', tags],
        /^kit: --tags: ".*" is not a tag expression: (expected operand|unmatched \()/,
      ]),
    ];
    const runs = await Promise.all(cases.map(([args]) => kit(['run', ...args])));
    for (const [i, run] of runs.entries()) assertInputError(run, cases[i]![1]);
  });

  test('a path is taken from the working directory and named as typed, not as a climb out of it', async () => {
    const elsewhere = scratch('elsewhere');
    const bad = join(scratch('absolute'), 'bad.json');
    writeFileSync(bad, '{');
    const [runtime, diff] = await Promise.all([
      kit(['run', '--runtime', 'fixtures/runtimes/ignores-message-ids.ts', '--rule', 'INB-02'], {}, elsewhere),
      kit(['diff', bad, bad], {}, elsewhere),
    ]);
    assertInputError(
      runtime,
      /^kit: --runtime: no runtime module at fixtures\/runtimes\/ignores-message-ids\.ts \(a path is taken from the working directory\)/,
    );
    assertInputError(diff, new RegExp(`^kit: ${bad.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}:\\d+:\\d+: not valid JSON`));
  });

  test('an output that cannot be written is refused before anything runs', async () => {
    const dir = scratch('outputs');
    const file = join(dir, 'a-file');
    writeFileSync(file, '');
    const cases: [string[], RegExp][] = [
      ...['--markdown', '--junit', '--messages', '--html', '--badge', '--results'].map((flag): [string[], RegExp] => [
        [flag, dir],
        new RegExp(`^kit: ${flag}: .* is a directory, not a file`),
      ]),
      [['--junit', join(file, 'junit.xml')], /^kit: --junit: .*junit\.xml is below .*a-file, which is a file/],
      [['--format', `json:${dir}`], /^kit: --format: .* is a directory, not a file/],
      [['--bundles', file], /^kit: --bundles: .*a-file is a file, not a directory/],
      // Places whose permission bits say yes (to root) and which refuse any file anyway.
      ...(existsSync('/proc/self')
        ? ([
            [['--junit', '/proc/nope/x.xml'], /^kit: --junit: \/proc\/nope\/x\.xml cannot be written here/],
            [['--html', '/proc/nope/x.html'], /^kit: --html: \/proc\/nope\/x\.html cannot be written here/],
          ] as [string[], RegExp][])
        : []),
    ];
    const runs = await Promise.all(cases.map(([args]) => kit(['run', '--rule', 'INB-01', ...args])));
    runs.forEach((run, i) => {
      assertInputError(run, cases[i]![1]);
      assert.equal(run.stdout, '', 'no scenario ran');
    });
  });

  test('a full device as a report is refused before anything runs, naming its flag', {
    skip: !existsSync('/dev/full'),
  }, async () => {
    const flags = ['--junit', '--markdown', '--messages', '--results'];
    const runs = await Promise.all(flags.map((flag) => kit(['run', '--rule', 'INB-01', flag, '/dev/full'])));
    runs.forEach((run, i) => {
      assertInputError(run, new RegExp(`^kit: ${flags[i]}: /dev/full cannot be written here \\(ENOSPC\\)$`, 'm'));
      assert.equal(run.stdout, '', 'no scenario ran');
    });
  });

  test('a runtime module that exports no createAdapter() is an input error before any scenario runs', async () => {
    const run = await kit(['run', '--runtime', 'harness/kit-root.ts', '--rule', 'INB-01']);
    assertInputError(run, /^kit: .*harness\/kit-root\.ts: the runtime module does not export createAdapter\(\)$/m);
    assert.equal(run.stdout, '');
  });

  test('a green run with injected faults prints no stack traces, unless --debug asks for them', async () => {
    const [quiet, debug] = await Promise.all([
      await kit(['run', '--rule', 'MCS-03']),
      await kit(['run', '--rule', 'MCS-03', '--debug']),
    ]);
    assert.equal(quiet.status, 0, quiet.stdout);
    assert.doesNotMatch(quiet.stderr, /^\s+at /m);
    assert.match(debug.stderr, /drain of s1 failed: SqliteError: injected write failure\n\s+at /);
  });

  test("NO_COLOR and --no-color turn Cucumber's colour off too, even where it is forced, without a warning", async () => {
    // --debug adds Cucumber's own account of the run, which colours its counts.
    const [forced, noColor, flag] = await Promise.all([
      await kit(['run', '--rule', 'INB-01', '--debug'], { FORCE_COLOR: '1', NO_COLOR: '' }),
      await kit(['run', '--rule', 'INB-01', '--debug'], { FORCE_COLOR: '1', NO_COLOR: '1' }),
      await kit(['run', '--rule', 'INB-01', '--debug', '--no-color'], { FORCE_COLOR: '1', NO_COLOR: '' }),
    ]);
    assert.doesNotMatch(noColor!.stderr, /deprecated/);
    assert.match(forced!.stdout, /\x1b\[32m2 passed/);
    assert.doesNotMatch(noColor!.stdout + noColor!.stderr, /\x1b\[/);
    assert.doesNotMatch(flag!.stdout + flag!.stderr, /\x1b\[/);
  });

  test('a tag expression that selects nothing is a usage error', async () => {
    const run = await kitRun(['--tags', '@no-such-tag']);
    assert.equal(run.status, 2);
    assert.match(run.stderr, /no scenario matches/);
  });

  test('reports are written on request: JUnit, messages, HTML, markdown and a badge; nothing else is left behind', async () => {
    const dir = scratch('reports');
    const scenarioRoot = scratch('reports-scenarios');
    const file = (name: string) => join(dir, 'reports', name);
    const run = await kit(
      [
        'run',
        '--rule',
        'INB-01',
        '--junit',
        file('junit.xml'),
        '--messages',
        file('m.ndjson'),
        '--html',
        file('r.html'),
        '--markdown',
        file('summary.md'),
        '--badge',
        file('badge.json'),
      ],
      { KIT_TMPDIR: scenarioRoot },
    );
    assert.equal(run.status, 0, run.stderr);
    assert.deepEqual(readdirSync(scenarioRoot), []);
    assert.match(readFileSync(file('junit.xml'), 'utf8'), /<testsuite [^>]*tests="2"/);
    assert.ok(
      readFileSync(file('m.ndjson'), 'utf8')
        .trim()
        .split('\n')
        .every((line) => 'testRunStarted' in JSON.parse(line) || Object.keys(JSON.parse(line)).length === 1),
    );
    assert.match(readFileSync(file('r.html'), 'utf8'), /<html/i);
    assert.match(readFileSync(file('summary.md'), 'utf8'), /^## Conformance: ✅ passed/);
    assert.deepEqual(JSON.parse(readFileSync(file('badge.json'), 'utf8')), {
      schemaVersion: 1,
      label: 'conformance',
      message: '1/1 rules',
      color: 'brightgreen',
    });
  });

  test('from another directory, the kit finds its suite and writes every report where the user stands', async () => {
    const dir = scratch('elsewhere');
    const args = [
      'run',
      '--rule',
      'INB-07',
      '--junit',
      'reports/junit.xml',
      '--format',
      'json:reports/cucumber.json',
      '--markdown',
      'reports/summary.md',
    ];
    const run = await kit(args, {}, dir);
    assert.equal(run.status, 0, run.stdout + run.stderr);
    assert.deepEqual(readdirSync(join(dir, 'reports')).sort(), ['cucumber.json', 'junit.xml', 'summary.md']);
  });

  test('a failing step carries the request that shows the failure, every request and the durable state; the summary quotes the request', async () => {
    const messages = join(scratch('evidence'), 'messages.ndjson');
    const run = await kit([
      'run',
      '--runtime',
      'fixtures/runtimes/queues-steers.ts',
      '--rule',
      'INB-07',
      '--messages',
      messages,
    ]);
    assert.equal(run.status, 1, run.stderr);
    const envelopes = readFileSync(messages, 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    const steps = new Map(
      envelopes
        .flatMap((e) => e.testCase?.testSteps ?? [])
        .map((step: { id: string; pickleStepId?: string }) => [step.id, step]),
    );
    const failed = envelopes
      .filter((e) => e.testStepFinished?.testStepResult.status === 'FAILED')
      .map((e) => e.testStepFinished.testStepId);
    const failingStep = failed.find((id: string) => steps.get(id)?.pickleStepId);
    const attached = envelopes.filter((e) => e.attachment?.testStepId === failingStep).map((e) => e.attachment);
    assert.deepEqual(
      attached.map((a) => a.fileName),
      ['request-2.txt', 'provider-requests.json', 'durable-state.json'],
    );
    // A log is the one attachment an HTML report shows without a click.
    assert.equal(attached[0].mediaType, 'text/x.cucumber.log+plain');
    assert.match(attached[0].body, /^request 2 of 3 · tools: /);
    assert.equal(JSON.parse(attached[1].body).length, 3);
    assert.deepEqual(Object.keys(JSON.parse(attached[2].body).s1), ['history', 'events', 'inbox', 'failures']);
    assert.match(run.stdout, /request 2 of 3 · tools: .*\n(.*\n)*\s+tool\s+\[call_gate_g1\] gate g1 opened\n/);
  });

  function baselineFile(...ids: string[]): string {
    const file = join(scratch('baseline'), 'known-failures.yaml');
    writeFileSync(
      file,
      `known-failures:\n${ids.map((id) => `  ${id}:\n    class: deviation\n    reason: ${id} fails as the runtime assigns its own message IDs\n`).join('')}`,
    );
    return file;
  }

  test('a failure the baseline lists does not fail the run, and every report says so in the same words', async () => {
    const page = join(scratch('baseline-green'), 'run.html');
    const run = await kitRun([...IGNORES_MESSAGE_IDS, '--baseline', baselineFile('inb-admission-4'), '--html', page]);
    assert.equal(run.status, 0, run.stdout + run.stderr);
    assert.match(run.stdout, /1 expected failure\(s\), 0 unexpected pass\(es\), 0 unexpected failure\(s\)/);
    assert.match(run.stdout, /^conformance: \d+ passed, 1 failed, all expected by the baseline$/m);
    const html = readFileSync(page, 'utf8');
    assert.match(
      html,
      /<h1>Conformance of .*: <span class="shape o-passed"[^>]*>✓<\/span>no change against the baseline · \d+ of \d+ rules passed<\/h1>/,
    );
    assert.match(html, /<td class="tint o-failed">.*failed, expected: /);
    assert.doesNotMatch(html, /^\s+at /m, 'no stack trace');
    assert.deepEqual(run.results.baseline, {
      file: run.results.baseline.file,
      expectedFailures: ['inb-admission-4'],
      unexpectedPasses: [],
      unexpectedFailures: [],
    });
  });

  const bundles = join(scratch('bundles'), 'bundles');
  let failing: ReturnType<typeof kitRun> | undefined;
  /** One run of the broken runtime, against an empty baseline, writing repro bundles: several tests read it. */
  const failingRun = () =>
    (failing ??= kitRun([...IGNORES_MESSAGE_IDS, '--baseline', baselineFile(), '--bundles', bundles]));

  test('a failure the baseline does not list fails the run', async () => {
    const run = await failingRun();
    assert.equal(run.status, 1);
    assert.match(run.stdout, /✖ failed, and the baseline does not list it: INB-02 .*\(@id:inb-admission-4\)/);
    const kept = /^kept: (\S+), the directories of 1 scenario\(s\) not as expected /m.exec(run.stdout);
    const listed = kept && readFileSync(join(kept[1]!, 'kept.txt'), 'utf8').split('\t');
    assert.equal(listed?.[0], 'inb-admission-4', run.stdout);
    assert.ok(existsSync(join(kept![1]!, listed![1]!, 'workspaces', '.store')), run.stdout);
  });

  test('a baseline entry that passes now fails the run as stale', async () => {
    const run = await kitRun([
      ...IGNORES_MESSAGE_IDS,
      '--baseline',
      baselineFile('inb-admission-4', 'inb-admission-3'),
    ]);
    assert.equal(run.status, 1);
    assert.match(run.stdout, /✖ passes now, remove it from the baseline: inb-admission-3/);
    assert.deepEqual(run.results.baseline.unexpectedPasses, ['inb-admission-3']);
  });

  test('a malformed baseline is an input error before anything runs', async () => {
    const file = join(scratch('baseline'), 'bad.yaml');
    writeFileSync(file, 'known-failures:\n  inb-admission-4: {}\n');
    assertInputError(
      await kit(['run', '--rule', 'INB-02', '--baseline', file]),
      /bad\.yaml:2: known-failures\.inb-admission-4\.class: is required/,
    );
  });

  test('--rerun runs only the scenarios that failed in a results file', async () => {
    const first = await failingRun();
    assert.equal(first.results.scenarios.length, 4);
    const file = join(scratch('rerun'), 'results.json');
    writeFileSync(file, JSON.stringify(first.results));
    const again = await kitRun(['--runtime', 'fixtures/runtimes/ignores-message-ids.ts', '--rerun', file]);
    assert.equal(again.status, 1, again.stderr);
    assert.deepEqual(
      again.results.scenarios.map((s: { id: string }) => s.id),
      ['inb-admission-4'],
    );
    // Failed scenarios the suite no longer has are named, not silently dropped.
    const gone = { status: 'failed', id: 'no-such-scenario' };
    writeFileSync(file, JSON.stringify({ scenarios: [...first.results.scenarios, gone] }));
    const named = await kitRun(['--runtime', 'fixtures/runtimes/ignores-message-ids.ts', '--rerun', file]);
    assert.match(named.stderr, /kit: --rerun: not in the suite any more, so not run: no-such-scenario\n/);
    writeFileSync(file, JSON.stringify({ scenarios: [gone] }));
    assertInputError(
      await kit(['run', '--rerun', file]),
      /--rerun: none of the 1 failed scenario\(s\) of .* is in the suite any more: no-such-scenario/,
    );
  });

  test("an outline's example rows each have their own ID, and --rerun runs one row or all of an outline", async () => {
    const file = join(scratch('rerun-rows'), 'results.json');
    const ids = (run: Awaited<ReturnType<typeof kitRun>>) => run.results.scenarios.map((s: { id: string }) => s.id);
    const outline = 'too-bounding-line-ends-1';
    writeFileSync(file, JSON.stringify({ scenarios: [{ id: `${outline}/crlf`, status: 'failed' }] }));
    const one = await kitRun(['--rerun', file]);
    assert.deepEqual(ids(one), [`${outline}/crlf`], one.stderr);
    assert.equal(one.results.scenarios[0].outline, outline);
    writeFileSync(file, JSON.stringify({ scenarios: [{ id: outline, status: 'failed' }] }));
    assert.deepEqual(ids(await kitRun(['--rerun', file])), [`${outline}/lf`, `${outline}/crlf`]);
  });

  test('shards split the selection by stable ID, each scenario in exactly one', async () => {
    const [first, second] = await Promise.all(
      ['1/2', '2/2'].map((shard) => kitRun(['--rule', 'INB-01', 'INB-02', '--shard', shard])),
    );
    const ids = (run: Awaited<ReturnType<typeof kitRun>>) => run.results.scenarios.map((s: { id: string }) => s.id);
    assert.deepEqual(ids(first!), ['inb-admission-1', 'inb-admission-3']);
    assert.deepEqual(ids(second!), ['inb-admission-2', 'inb-admission-4']);
    assert.match(first!.stdout, /shard 1\/2: 2 scenario\(s\) of the selection/);
  });

  test('a command that is not one is named, with the nearest one', async () => {
    assertInputError(await kit(['rn']), /^kit: "rn" is not a command \(did you mean run\?\): the commands are run, /);
    assertInputError(await kit(['frobnicate']), /^kit: "frobnicate" is not a command: the commands are /);
  });

  test('a shard that is not one is a usage error', async () => {
    assertInputError(await kit(['run', '--shard', '3/2']), /--shard: "3\/2" is not a shard like 2\/3/);
  });

  test('a failing scenario leaves a repro bundle with requests, durable state and the failure', async () => {
    assert.equal((await failingRun()).status, 1);
    assert.deepEqual(readdirSync(bundles), ['inb-admission-4']);
    const bundle = join(bundles, 'inb-admission-4');
    assert.deepEqual(readdirSync(bundle).sort(), ['bundle.json', 'failure.txt', 'requests.json', 'sessions']);
    assert.deepEqual(readdirSync(join(bundle, 'sessions', 's1')).sort(), [
      'events.json',
      'failures.json',
      'history.json',
      'inbox.json',
    ]);
    // Two short values are shown once, whole, in the kit's words: no diff of them repeats the line.
    const failure = readFileSync(join(bundle, 'failure.txt'), 'utf8');
    assert.match(failure, /expected messageId "m1", saw "msg_0_0002"/);
    assert.doesNotMatch(failure, /\+ expected - actual|first difference/);
    const inbox = JSON.parse(readFileSync(join(bundle, 'sessions', 's1', 'inbox.json'), 'utf8'));
    assert.deepEqual(
      inbox.map((row: { messageId: string }) => row.messageId),
      ['msg_0_0001', 'msg_0_0002'],
    );
    assert.deepEqual(JSON.parse(readFileSync(join(bundle, 'bundle.json'), 'utf8')).runtime, {
      module: 'fixtures/runtimes/ignores-message-ids.ts',
    });
  });

  test('the built-in reference says how to run the scenarios of a profile it set aside', async () => {
    const run = await kitRun(['--rule', 'CON-01'], { REFERENCE_PROFILE: 'core' });
    assert.match(
      run.stdout,
      /\nthe built-in reference ran profile core: run again with REFERENCE_PROFILE=continuation for the scenarios of another\n/,
    );
  });

  test('a runtime with no optional capability gets a verdict on every rule that needs none', async () => {
    const run = await kitRun([
      '--runtime',
      'fixtures/runtimes/required-only.ts',
      '--rule',
      'INB-01',
      'INB-03',
      'INB-05',
      'INB-06',
    ]);
    assert.equal(run.status, 0, run.stdout + run.stderr);
    // INB-05's tool calls reach it through its declared shell, so only INB-06 is left without a verdict.
    assert.deepEqual(run.results.coverage.passed, ['INB-01', 'INB-03', 'INB-05']);
    assert.deepEqual(run.results.coverage.withoutVerdict, {
      'INB-06': ['needs capability restart', 'needs capability fault-injection'],
    });
    // Each rule's share of scenarios and clauses that gave it a verdict: INB-06 none of them.
    assert.equal(run.results.shares['INB-06'].scenarios.judged, 0);
    assert.ok(run.results.shares['INB-06'].scenarios.of > 0);
    assert.ok(run.results.shares['INB-01'].scenarios.judged > 0);
    assert.ok(run.results.shares['INB-01'].clauses.judged <= run.results.shares['INB-01'].clauses.of);
    assert.match(
      run.stdout,
      /no verdict, needs capability restart: INB-06\n {2}no verdict, needs capability fault-injection: INB-06\nverdicts: 3 of 4 rules \(75%\)/,
    );
  });
});
