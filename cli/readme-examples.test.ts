import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { kitPath } from '../harness/kit-root.js';
import { readScenarios, stableIds } from '../harness/suite/suite-index.js';
import { kit, scratch } from './kit-for-tests.js';

// The README and the guides quote the kit's output, and the example baselines name their entries'
// scenarios as `kit baseline` writes them; a quoted reference that no longer points at its scenario
// would send a reader to the wrong line.

const DOCUMENTS = [
  'README.md',
  'docs/implementers.md',
  'docs/session-scripts.md',
  'features/README.md',
  ...readdirSync(kitPath('fixtures/baselines'))
    .filter((name) => name.endsWith('.yaml'))
    .map((name) => `fixtures/baselines/${name}`),
];

/** `features/<file>.feature:<line>`, then as the kit prints it `[n] <name>` and `(@id:<id>)`. */
const REFERENCE = /(features\/[\w/-]+\.feature):(\d+)(?: (\[\d+\] [^\n(`]*))?(?:\(@id:([^)\s]+)\))?/g;

test('a scenario the documents quote by file and line is at that line, with that name and ID', () => {
  const scenarios = readScenarios(kitPath('features'));
  const quoted = DOCUMENTS.flatMap((document) =>
    [...readFileSync(kitPath(document), 'utf8').matchAll(REFERENCE)].map((match) => ({ document, match })),
  );
  assert.ok(quoted.length > 0, 'the documents quote no scenario');
  for (const { document, match } of quoted) {
    const [reference, file, line, name, id] = match;
    const at = Number(line);
    const scenario = scenarios.find(
      (s) => s.file.endsWith(file!) && (s.line === at || s.rows.some((row) => row.line === at)),
    );
    assert.ok(scenario, `${document}: ${reference}: no scenario or example row starts at that line`);
    if (name)
      assert.ok(
        scenario.name.startsWith(name.replace(/(\.\.\.|…)?\s*$/, '')),
        `${document}: ${reference}: the scenario there is "${scenario.name}"`,
      );
    if (id)
      assert.ok(
        stableIds(scenario).includes(id),
        `${document}: ${reference}: the scenario there is @id:${scenario.ids[0]}`,
      );
  }
});

/** A failing step as the kit prints it under a scenario: `at: <keyword> <text> (line <n>)`. */
const FAILING_STEP = /^\s*at: ((?:Given|When|Then|And|But) .*) \(line (\d+)\)$/;

test('a failing step the documents quote under a scenario is at that line of its feature, as written', () => {
  let checked = 0;
  for (const document of DOCUMENTS) {
    const lines = readFileSync(kitPath(document), 'utf8').split('\n');
    lines.forEach((text, i) => {
      const [reference] = [...text.matchAll(REFERENCE)];
      const step = lines
        .slice(i + 1, i + 3)
        .map((next) => FAILING_STEP.exec(next))
        .find(Boolean);
      if (!reference || !step) return;
      const feature = readFileSync(kitPath(reference[1]!), 'utf8').split('\n');
      assert.equal(
        feature[Number(step[2]) - 1]?.trim(),
        step[1],
        `${document}:${i + 2}: ${reference[1]}, line ${step[2]}`,
      );
      checked += 1;
    });
  }
  assert.ok(checked > 0, 'the documents quote no failing step');
});

test('a one-off npx command names the kit by its package, not the registry package named kit', () => {
  const { name } = JSON.parse(readFileSync(kitPath('package.json'), 'utf8')) as { name: string };
  const readme = readFileSync(kitPath('README.md'), 'utf8');
  const oneOffs = readme.split('\n').filter((line) => /\bnpx (--package|-p)\b/.test(line));
  assert.ok(oneOffs.length > 0, 'the README gives no one-off command');
  // Or the file `npm pack` makes of the package, `<name>-<version>.tgz`.
  for (const line of oneOffs)
    assert.match(line, new RegExp(`npx (--package|-p)[ =](\\./)?${name}(-[\\d.]+\\.tgz)? kit `), line);
});

/** The fenced block after a document's paragraph ending with `marker`. */
function blockAfter(document: string, marker: string): string {
  const text = readFileSync(kitPath(document), 'utf8');
  const opening = `${marker}\n\n${'`'.repeat(3)}\n`;
  const from = text.indexOf(opening);
  assert.ok(from >= 0, `${document}: no block follows "${marker}"`);
  const start = from + opening.length;
  return text.slice(start, text.indexOf(`\n${'`'.repeat(3)}`, start) + 1);
}

test("the quick start's last command prints, and exits with, what the README says", async () => {
  // The quick start's own commands, its output paths below a scratch directory as `reports/`.
  const cwd = scratch('quick-start');
  const fixture = (name: string) => kitPath('fixtures', 'scripts', name);
  for (const [script, out] of [
    ['steer-mid-drain.json', 'reports/steer.json'],
    ['queue-mid-drain.json', 'reports/queue.json'],
  ] as const) {
    const replay = await kit(['replay', fixture(script), '--out', out], {}, cwd);
    assert.equal(replay.status, 0, replay.stderr);
  }
  const diff = await kit(['diff', 'reports/steer.json', 'reports/queue.json'], {}, cwd);
  assert.equal(diff.status, 1, diff.stderr);
  assert.equal(diff.stdout, blockAfter('README.md', 'The last command prints:'));
});
