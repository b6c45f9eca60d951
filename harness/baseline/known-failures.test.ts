import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { formatKnownFailures, readKnownFailures, reasonInDialect } from './known-failures.js';

const dir = mkdtempSync(join(tmpdir(), 'kit-baseline-test-'));
after(() => rmSync(dir, { recursive: true, force: true }));
const suite = new Set(['inb-a', 'inb-b']);

function baseline(text: string) {
  const file = join(dir, 'known-failures.yaml');
  writeFileSync(file, text);
  return () => readKnownFailures(file, suite);
}

test('a written baseline reads back, in ID order, with its comments', () => {
  const text = formatKnownFailures([
    { id: 'inb-b', class: 'deviation', reason: 'expected [ 1 ]: "x"', comment: 'INB-02 features/x.feature:3 [4] b' },
    { id: 'inb-a', class: 'not-implemented', reason: 'slow store', comment: 'INB-01 features/x.feature:1 [1] a' },
  ]);
  assert.match(
    text,
    /# INB-01 features\/x\.feature:1 \[1\] a\n {2}inb-a:\n {4}class: not-implemented\n {4}reason: slow store\n/,
  );
  assert.ok(text.indexOf('inb-a') < text.indexOf('inb-b'));
  assert.deepEqual(
    [...baseline(text)().entries],
    [
      ['inb-a', { class: 'not-implemented', reason: 'slow store' }],
      ['inb-b', { class: 'deviation', reason: 'expected [ 1 ]: "x"' }],
    ],
  );
});

test('an empty baseline is valid, as written or as a bare key', () => {
  assert.equal(baseline(formatKnownFailures([]))().entries.size, 0);
  assert.equal(baseline('known-failures:\n')().entries.size, 0);
});

for (const [what, text, expected] of [
  [
    'a missing reason',
    'known-failures:\n  inb-a:\n    class: deviation\n    reason: ""\n',
    /known-failures\.yaml:3: known-failures\.inb-a\.reason: is required/,
  ],
  [
    'an entry without fields',
    'known-failures:\n  inb-a: because\n',
    /known-failures\.yaml:2: known-failures\.inb-a: expected an entry with a class and a reason/,
  ],
  [
    'an unknown field',
    'known-failures:\n  inb-a:\n    reasn: x\n',
    /known-failures\.yaml:3: known-failures\.inb-a\.reasn: is not a known field/,
  ],
  [
    'an ID no scenario has',
    'known-failures:\n  inb-z:\n    reason: x\n',
    /known-failures\.yaml:2: known-failures\.inb-z: no scenario or example row has this ID/,
  ],
  [
    'a missing class',
    'known-failures:\n  inb-a:\n    reason: x\n',
    /known-failures\.yaml:3: known-failures\.inb-a\.class: is required: deviation or not-implemented/,
  ],
  [
    'an unknown class',
    'known-failures:\n  inb-a:\n    class: flaky\n    reason: x\n',
    /known-failures\.yaml:3: known-failures\.inb-a\.class: "flaky" is not a class/,
  ],
  [
    'two entries with one reason',
    'known-failures:\n  inb-a:\n    class: deviation\n    reason: same\n  inb-b:\n    class: deviation\n    reason: " same"\n',
    /known-failures\.yaml:6: known-failures\.inb-b\.reason: is the reason of inb-a too/,
  ],
  [
    'intermittent other than true',
    'known-failures:\n  inb-a:\n    class: deviation\n    reason: x\n    intermittent: sometimes\n',
    /known-failures\.yaml:3: known-failures\.inb-a\.intermittent: is true or left out/,
  ],
  [
    'an intermittent entry whose reason names no rule first',
    'known-failures:\n  inb-a:\n    class: deviation\n    reason: races\n    intermittent: true\n',
    /known-failures\.yaml:3: known-failures\.inb-a\.reason: an intermittent entry's reason starts with the rules/,
  ],
  [
    'an intermittent not-implemented',
    'known-failures:\n  inb-a:\n    class: not-implemented\n    reason: x\n    intermittent: true\n',
    /known-failures\.yaml:3: known-failures\.inb-a\.intermittent: only a deviation/,
  ],
  ['a YAML syntax error', 'known-failures:\n  inb-a: [\n', /known-failures\.yaml:3: Flow sequence/],
  [
    'a repeated ID',
    'known-failures:\n  inb-a:\n    reason: x\n  inb-a:\n    reason: y\n',
    /known-failures\.yaml:4: Map keys must be unique/,
  ],
  ['another shape', 'failures: []\n', /known-failures\.yaml:1: expected one mapping, "known-failures:"/],
  [
    'an unknown tag',
    'known-failures:\n  inb-a: !entry\n    reason: x\n',
    /known-failures\.yaml:2: Unresolved tag: !entry/,
  ],
  [
    'a YAML directive',
    '%YAML 1.1\n---\nknown-failures:\n',
    /known-failures\.yaml:1: directives \(%YAML, %TAG\) are not accepted/,
  ],
  [
    'a TAG directive',
    '%TAG !k! tag:kit:\n---\nknown-failures:\n',
    /known-failures\.yaml:1: directives \(%YAML, %TAG\) are not accepted/,
  ],
] as const) {
  test(`a baseline with ${what} is refused in one line naming file and line`, () => {
    assert.throws(
      baseline(text),
      (error: Error) => error.name === 'KitInputError' && expected.test(error.message) && !error.message.includes('\n'),
    );
  });
}

test('a baseline that is not UTF-8, or is a directory, is refused naming it', () => {
  const file = join(dir, 'latin1.yaml');
  writeFileSync(
    file,
    Buffer.concat([Buffer.from('known-failures:\n  inb-a:\n    reason: caf'), Buffer.from([0xe9]), Buffer.from('\n')]),
  );
  assert.throws(
    () => readKnownFailures(file, suite),
    /latin1\.yaml:3: is not UTF-8 text \(an invalid byte at offset 40\)$/,
  );
  assert.throws(() => readKnownFailures(dir, suite), /kit-baseline-test-\w+: is a directory, not a file$/);
});

test('a baseline far larger than any real one is refused before it is parsed', () => {
  const huge = `known-failures: [${Array(200_000).fill('1').join(',')}]\n`;
  assert.throws(baseline(huge), /known-failures\.yaml: is 391 KiB, more than the 256 KiB such a file can be$/);
});

test('a dense list within the size limit is refused before it is parsed, in well under a second', () => {
  const dense = `known-failures: [${Array(120_000).fill('1').join(',')}]\n`;
  const started = process.cpuUsage();
  assert.throws(baseline(dense), /known-failures\.yaml: holds more than 20000 YAML tokens/);
  const used = process.cpuUsage(started);
  assert.ok(used.user + used.system < 500_000, `${used.user + used.system} µs`);
});

test('a byte-order mark before a baseline is dropped, as every input of the kit drops it', () => {
  assert.equal(baseline('\uFEFFknown-failures: {}\n')().entries.size, 0);
});

test('an entry naming its dialects holds in those only, and is written back with them', () => {
  const text = formatKnownFailures([
    { id: 'inb-a', class: 'deviation', reason: 'one dialect', dialects: ['openai-responses'], comment: 'INB-01 a' },
    { id: 'inb-b', class: 'deviation', reason: 'every dialect', comment: 'INB-02 b' },
  ]);
  const file = join(dir, 'dialects.yaml');
  writeFileSync(file, text);
  assert.deepEqual([...readKnownFailures(file, suite, 'openai-chat').entries.keys()], ['inb-b']);
  assert.deepEqual(readKnownFailures(file, suite, 'openai-responses').entries.get('inb-a'), {
    class: 'deviation',
    reason: 'one dialect',
    dialects: ['openai-responses'],
  });
  assert.equal(readKnownFailures(file, suite).entries.size, 2);
  assert.throws(
    baseline('known-failures:\n  inb-a:\n    class: deviation\n    reason: x\n    dialects: openai-chat\n'),
    /inb-a\.dialects: is a list of provider dialects/,
  );
});

test("an entry failing differently by dialect holds each run's paragraph alone, and none where no paragraph names the run's", () => {
  const reason =
    "In openai-chat, CMP-10 at 'a': saw 2. In anthropic-messages and openai-responses, CMP-11 at 'b': saw 8.";
  const file = join(dir, 'paragraphs.yaml');
  writeFileSync(file, `known-failures:\n  inb-a:\n    class: deviation\n    reason: "${reason}"\n`);
  assert.equal(readKnownFailures(file, suite, 'openai-chat').entries.get('inb-a')?.reason, "CMP-10 at 'a': saw 2.");
  assert.equal(
    readKnownFailures(file, suite, 'openai-responses').entries.get('inb-a')?.reason,
    "CMP-11 at 'b': saw 8.",
  );
  assert.equal(readKnownFailures(file, suite, 'gemini').entries.size, 0);
  // Read for no run (to be written back), the entry keeps its whole reason.
  assert.equal(readKnownFailures(file, suite).entries.get('inb-a')?.reason, reason);
  // A reason that only mentions a dialect later is one reason for every dialect.
  assert.equal(
    reasonInDialect('RUN-01: In openai-chat, the row is late.', 'gemini'),
    'RUN-01: In openai-chat, the row is late.',
  );
});
