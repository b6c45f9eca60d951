import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fieldDesigns, openChoices, readFieldDesigns, readOpenChoices } from './open-choices.js';

test("the rule index's open choices read as data: readings and rules", () => {
  const delivery = openChoices().get('prompt.default-delivery');
  assert.deepEqual(delivery?.readings, ['steer', 'queue']);
  assert.ok(delivery.rules.includes('INB-02'));
  assert.equal(openChoices().get('checkpoint.hash')?.readings, 'any');
});

test('a malformed open choice names its line', () => {
  const dir = mkdtempSync(join(tmpdir(), 'kit-choices-'));
  try {
    const file = join(dir, 'index.md');
    writeFileSync(file, '# Index\n\n## Open choices\n\n- **a.b**: a choice without its readings.\n');
    assert.throws(() => readOpenChoices(file), /index\.md:5: an open choice is/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("the rule index's designs read as data: the designs, those the seeds allow, and rules", () => {
  const during = fieldDesigns().get('prompt.during-turn');
  assert.deepEqual(during?.designs, ['steered', 'queued', 'cancel-and-keep', 'cancel-and-drop']);
  assert.deepEqual(during.allowed, ['steered', 'queued']);
  assert.deepEqual(during.rules, ['INB-07']);
});

test('a malformed design names its line', () => {
  const dir = mkdtempSync(join(tmpdir(), 'kit-designs-'));
  try {
    const file = join(dir, 'index.md');
    writeFileSync(
      file,
      '# Index\n\n## Designs the seeds decide\n\n- **a.b**: a design. Designs: `x`. Rules: INB-07.\n',
    );
    assert.throws(() => readFieldDesigns(file), /index\.md:5: a design is/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
