import { test } from 'node:test';
import assert from 'node:assert/strict';
import { saysWhereToGoOn, textListing, textPage } from './read-text.js';

const lines = (from: number, to: number, shown: (n: number) => string) =>
  Array.from({ length: to - from + 1 }, (_, i) => shown(from + i)).join('\n');

test('a text page yields the numbers of the lines it shows, with or without line numbers of its own', () => {
  const plain = textPage(
    `${lines(10, 14, (n) => `line ${n}`)}\n\n[29986 more lines in file. Use offset=15 to continue.]`,
  );
  assert.deepEqual(plain.lines, [10, 11, 12, 13, 14]);
  assert.match(plain.notes, /offset=15/);
  assert.deepEqual(textPage(lines(1, 3, (n) => `${String(n).padStart(6)}→line ${n}`)).lines, [1, 2, 3]);
  assert.deepEqual(textPage('Showing lines 1-1000 of 30001 total lines.\n\n---\n\nline 1').lines, [1]);
});

test('a page says where to go on by the next line, or by its range and a line past it', () => {
  assert.equal(saysWhereToGoOn('[Use offset=15 to continue.]', 10, 14), true);
  assert.equal(saysWhereToGoOn('Showing lines 10-14 of 30001 total lines.', 10, 14), true);
  assert.equal(saysWhereToGoOn('For example, use start_line: 2001.', 1, 2000), true);
  assert.equal(saysWhereToGoOn('Showing lines 1-30000 of 30000 total lines.', 1, 30000), false);
  assert.equal(saysWhereToGoOn('[Use offset=14 to continue.]', 10, 14), false);
  assert.equal(saysWhereToGoOn('', 10, 14), false);
  assert.equal(saysWhereToGoOn('Use offset=150 to continue.', 10, 14), false);
});

test('a text listing yields its entry names in order, markers of their kind dropped, headings and counts left as notes', () => {
  const listing = textListing('Directory listing for /w/s1:\n[DIR] beta\n[DIR] zeta\na.txt\nb.txt\n\n(4 entries)');
  assert.deepEqual(listing.names, ['beta', 'zeta', 'a.txt', 'b.txt']);
  assert.match(listing.notes, /4 entries/);
  assert.deepEqual(textListing('beta/\nzeta/\na.txt').names, ['beta', 'zeta', 'a.txt']);
});
