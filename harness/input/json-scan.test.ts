import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { offsetOf, scanJson, type JsonPath } from './json-scan.js';

/** Every path in a value, with the value found there. */
function pathsOf(value: unknown, path: JsonPath = []): [JsonPath, unknown][] {
  const children = Array.isArray(value)
    ? value.map((item, i) => [i, item] as const)
    : typeof value === 'object' && value !== null
      ? Object.entries(value)
      : [];
  return [[path, value], ...children.flatMap(([key, child]) => pathsOf(child, [...path, key]))];
}

test('the scan finds an error exactly when JSON.parse does', () => {
  const almostJson = fc.oneof(
    fc.json(),
    fc
      .tuple(fc.json(), fc.nat(), fc.constantFrom('', ',', '}', ']', '"', ':', '[', '{', '\\', '\n', 'x', '01', '-'))
      .map(([text, at, insert]) => text.slice(0, at % (text.length + 1)) + insert + text.slice(at % (text.length + 1))),
    fc.string(),
  );
  fc.assert(
    fc.property(almostJson, (text) => {
      let parses = true;
      try {
        JSON.parse(text);
      } catch {
        parses = false;
      }
      assert.equal(scanJson(text).errorAt === undefined, parses, text);
    }),
    { numRuns: 2000 },
  );
});

test('every value of a document is found where it starts', () => {
  fc.assert(
    fc.property(fc.json(), fc.constantFrom(0, 2), (compact, indent) => {
      const text = JSON.stringify(JSON.parse(compact), null, indent);
      for (const [path, value] of pathsOf(JSON.parse(text))) {
        const offset = offsetOf(text, path)!;
        // The value that starts there is the one at the path: parsing from there gives it back.
        const rest = text.slice(offset);
        const end = [...Array(rest.length + 1).keys()].reverse().find((length) => {
          try {
            JSON.parse(rest.slice(0, length));
            return true;
          } catch {
            return false;
          }
        });
        assert.deepEqual(JSON.parse(rest.slice(0, end)), value, `${JSON.stringify(path)} in ${text}`);
      }
    }),
    { numRuns: 200 },
  );
});

test('a missing field is placed at its nearest parent', () => {
  const text = '{\n  "timeline": [\n    { "step": "prompt" }\n  ]\n}';
  assert.equal(offsetOf(text, ['timeline', 0, 'text']), text.indexOf('{ "step"'));
  assert.equal(offsetOf(text, ['nothing', 3]), 0);
});

test('nesting deeper than allowed is found where it starts, without exhausting the stack', () => {
  const text = `{"a":${'['.repeat(100_000)}${']'.repeat(100_000)}}`;
  assert.deepEqual(scanJson(text, { maxDepth: 10 }), { tooDeepAt: 5 + 9 });
  assert.deepEqual(scanJson(text), {});
});
