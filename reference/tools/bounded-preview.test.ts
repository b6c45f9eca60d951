import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { boundedPreview, withinLimit, type ToolOutputLimit } from './bounded-preview.js';

const MARKER = '... output truncated; full output saved to /data/tool-output/tool_0001 ...';
const RUNS = 3000;

const utf8 = (text: string) => Buffer.from(text, 'utf8');
/** Lines as the model reads them: a trailing newline opens no further line. */
const lines = (text: string) => (text === '' ? 0 : text.replace(/\n$/, '').split('\n').length);

function bound(text: string, limit: ToolOutputLimit): string {
  const preview = boundedPreview(text, limit, MARKER);
  // The texts bounded here hold no U+FFFD: one in the preview would be a character split in two.
  assert.ok(!preview.includes('\uFFFD'), 'the preview splits no character');
  return preview;
}

const line = fc.string({ unit: fc.constantFrom('a', 'é', '€', '𝄞', ' ', '\r', '\t', 'Z'), maxLength: 40 });
const output = fc.array(line, { maxLength: 80 }).map((ls) => ls.join('\n'));
const limit = fc.record({ maxLines: fc.integer({ min: 1, max: 60 }), maxBytes: fc.integer({ min: 1, max: 600 }) });

test('the preview is within both limits and never splits a character', () => {
  fc.assert(
    fc.property(output, limit, (text, l) => {
      if (withinLimit(text, l)) return;
      const preview = bound(text, l);
      assert.ok(lines(preview) <= l.maxLines, `${lines(preview)} lines > ${l.maxLines}`);
      assert.ok(utf8(preview).length <= l.maxBytes, `${utf8(preview).length} bytes > ${l.maxBytes}`);
    }),
    { numRuns: RUNS },
  );
});

test('the first and last lines are kept whenever they fit with the marker', () => {
  fc.assert(
    fc.property(output, limit, (text, l) => {
      const all = text.split('\n');
      const [first, last] = [all[0]!, all.at(-1)!];
      // Head and tail are kept only with room for a character on each side of the marker, even where both lines are empty.
      const room = Math.max(utf8(first).length + utf8(last).length + 2, 4);
      const fits = l.maxLines >= 3 && utf8(MARKER).length + room <= l.maxBytes;
      if (withinLimit(text, l) || !fits || all.length < 2) return;
      const preview = bound(text, l).split('\n');
      assert.equal(preview[0], first);
      assert.equal(preview.at(-1), last);
    }),
    { numRuns: RUNS },
  );
});

test("the kept head and tail are the text's own beginning and end", () => {
  fc.assert(
    fc.property(output, limit, (text, l) => {
      if (withinLimit(text, l) || l.maxLines < 3 || l.maxBytes < utf8(MARKER).length + 4) return;
      const preview = bound(text, l);
      const at = preview.indexOf(MARKER);
      assert.ok(at >= 0, 'the marker is in the preview');
      const head = preview.slice(0, Math.max(0, at - 1));
      const tail = preview.slice(at + MARKER.length + 1);
      assert.ok(text.startsWith(head), 'the head is a prefix');
      assert.ok(text.endsWith(tail), 'the tail is a suffix');
    }),
    { numRuns: RUNS },
  );
});

const limit10: ToolOutputLimit = { maxLines: 10, maxBytes: 200 };

test('edge cases', () => {
  assert.ok(withinLimit('', limit10), 'empty output');
  const enormous = 'x'.repeat(10_000);
  const cut = bound(enormous, limit10);
  assert.ok(
    cut.startsWith('xxx') && cut.endsWith('xxx') && utf8(cut).length <= 200,
    'one enormous line keeps both ends',
  );
  const crlf = Array.from({ length: 30 }, (_, i) => `row ${i}\r`).join('\n');
  const kept = bound(crlf, limit10).split('\n');
  assert.deepEqual([kept[0], kept.at(-1)], ['row 0\r', 'row 29\r'], 'CRLF lines are kept whole');
  const newlines = '\n'.repeat(50);
  assert.ok(lines(bound(newlines, limit10)) <= 10, 'only newlines');
  const exact = Array.from({ length: 10 }, () => 'y').join('\n');
  assert.ok(withinLimit(exact, limit10), 'exactly at the line limit');
  assert.ok(!withinLimit(`${exact}\ny`, limit10), 'one line over');
  assert.ok(withinLimit(`${'€'.repeat(66)}ab`, limit10), 'exactly at the byte limit');
  assert.ok(!withinLimit(`${'€'.repeat(66)}abc`, limit10), 'one byte over');
  const multibyte = bound('𝄞'.repeat(500), limit10);
  assert.ok(utf8(multibyte).length <= 200, 'a cut in four-byte characters stays within bytes');
});

test('a limit too small for head and tail keeps the marker alone, fitted to the limit', () => {
  assert.equal(bound('a\nb\nc\nd', { maxLines: 2, maxBytes: 1000 }), MARKER);
  assert.equal(bound('abcdef'.repeat(100), { maxLines: 10, maxBytes: 12 }), MARKER.slice(0, 12));
});

test('cuts between four-byte characters keep whole surrogate pairs at both ends', () => {
  const limit = { maxLines: 10, maxBytes: 200 };
  assert.equal(bound('𝄞'.repeat(500), limit), `${'𝄞'.repeat(15)}\n${MARKER}\n${'𝄞'.repeat(16)}`);
  assert.equal(bound(`${'𝄞'.repeat(300)}\nlast`, { maxLines: 10, maxBytes: 120 }), `${'𝄞'.repeat(5)}\n${MARKER}\nlast`);
});

test('a first line that fits is kept whole while the last is cut on a character', () => {
  assert.equal(
    bound(`first\n${'é'.repeat(300)}`, { maxLines: 10, maxBytes: 120 }),
    `first\n${MARKER}\n${'é'.repeat(19)}`,
  );
  const crlf = `${'x'.repeat(90)}\r\n${'y'.repeat(90)}`;
  assert.equal(bound(crlf, { maxLines: 10, maxBytes: 160 }), `${'x'.repeat(42)}\n${MARKER}\n${'y'.repeat(42)}`);
});

test('a lone surrogate reads as U+FFFD and is counted as its three UTF-8 bytes', () => {
  const text = `\ud800${'a'.repeat(300)}\udc00`;
  assert.equal(
    boundedPreview(text, { maxLines: 10, maxBytes: 100 }, MARKER),
    `\uFFFD${'a'.repeat(9)}\n${MARKER}\n${'a'.repeat(9)}\uFFFD`,
  );
  assert.equal(boundedPreview('a\nb', { maxLines: 2, maxBytes: 100 }, 'cut \ud800 here'), 'cut \uFFFD here');
  assert.equal(
    boundedPreview('a\nb', { maxLines: 2, maxBytes: 7 }, 'x𝄞𝄞'),
    'x𝄞',
    'a marker cut keeps whole characters',
  );
});
