import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { hostileCases, tryCases } from '../scripts/fuzz-cli.js';

/**
 * A sample of `npm run fuzz`: malformed flags, paths, files and stores, each refused with exit 2
 * and one line naming it, quickly, leaving nothing behind. The whole set runs as `npm run fuzz`.
 */

const dir = mkdtempSync(join(tmpdir(), 'kit-hostile-'));
after(() => rmSync(dir, { recursive: true, force: true }));

test('a sample of hostile inputs to every command is each refused in one line naming it', async () => {
  const all = hostileCases(dir);
  assert.ok(all.length >= 1000, `${all.length} cases`);
  const named = all.filter((c) =>
    /^(unknown command "rn"|--shard "9{20}\/9{20}"|--messages \/dev\/full|--rule "INB-99"|--junit a missing directory under \/proc|diff \(first\): JSON nested 100,000 deep|--baseline: a baseline holding a huge array|--format :x|replay of a recording of SSE comments alone|diff of a path holding a newline|replay of a recording of very many frames)$/.test(
      c.what,
    ),
  );
  assert.equal(named.length, 11, named.map((c) => c.what).join(', '));
  const sample = [...named, ...fc.sample(fc.constantFrom(...all), { numRuns: 9, seed: 7 })];
  const { mishandled } = await tryCases(sample, dir);
  assert.deepEqual(
    mishandled.map((m) => `${m.case.what}: ${m.problems.join('; ')}: ${m.stderr}`),
    [],
  );
});
