import { test } from 'node:test';
import assert from 'node:assert/strict';
import { OUTCOME_LOOKS } from './outcome-colours.js';
import { baselineOf, scenarioResult } from './results-for-tests.js';
import { runPage } from './run-page.js';
import { judge } from './verdict.js';

const results = [
  scenarioResult('inb-a-1', 'passed', ['INB-01']),
  scenarioResult('inb-a-2', 'failed', ['INB-01', 'INB-02'], {
    message: 'expected m1, saw msg_2',
    step: 'Then x (line 9)',
    charged: ['INB-01'],
  }),
];
const page = runPage(results, 'broken', judge(results));

test('a rule links to the scenario that decided its outcome: its failure where it failed', () => {
  assert.match(page, /<th scope="row"><a href="#inb-a-2">INB-01<\/a><\/th><td class="tint o-failed">/);
  assert.match(
    page,
    /<tr id="inb-a-2">.*<details><summary>Then x \(line 9\)<\/summary><pre>[^<]*expected m1, saw msg_2/,
  );
  assert.match(page, /details\.open = true/, 'the evidence of the scenario reached opens');
});

test("each scenario of a rule is listed with its outcome for that rule, which may differ from the scenario's", () => {
  assert.match(page, /<th scope="row"><a href="#inb-a-2">INB-02<\/a><\/th><td class="tint o-not-judged">/);
});

test("the outcomes wear the field page's colours", () => {
  assert.ok(page.includes(`.o-failed { --outcome: ${OUTCOME_LOOKS.failed.colour};`));
  assert.match(page, /<ul class="legend">/);
});

test("the heading says what passed, in the markdown summary's words", () => {
  const expected = runPage(results, 'broken', judge(results, baselineOf('inb-a-2')));
  // The mark is the outcome's own shape, drawn in a font every page has, not an emoji.
  assert.match(
    expected,
    /<h1>Conformance of broken: <span class="shape o-passed"[^>]*>✓<\/span>no change against the baseline · 0 of 2 rules passed<\/h1>/,
  );
  assert.match(
    page,
    /<h1>Conformance of broken: <span class="shape o-failed"[^>]*>✗<\/span>failed · 0 of 2 rules passed<\/h1>/,
  );
});
