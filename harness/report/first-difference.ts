/**
 * Where a compared record first differs from the expected one, as lines a person can read in a
 * terminal: the expected and actual values are laid out as indented JSON, and the first line that
 * differs is shown whole beside the line expected there. A line too long to read (a tool output,
 * say) is shown from just before its first differing character.
 */
export function firstDifference(expected: unknown, actual: unknown): string[] | undefined {
  // Two short texts of one line each: the message shows both whole already.
  const short = (text: string) => !text.includes('\n') && text.length <= READABLE;
  if (typeof expected === 'string' && typeof actual === 'string' && short(expected) && short(actual)) return undefined;
  // A value checked against a list of the values allowed (chai's `oneOf`) has no line to compare.
  if (typeof expected !== typeof actual || Array.isArray(expected) !== Array.isArray(actual)) return undefined;
  if (Array.isArray(expected) && Array.isArray(actual)) {
    const missing = missingItem(expected, actual);
    if (missing) return missing;
  }
  const want = layout(expected);
  const got = layout(actual);
  const line = want.findIndex((text, i) => text !== got[i]);
  const at = line === -1 ? (got.length > want.length ? want.length : -1) : line;
  if (at === -1) return undefined;
  const [wanted, found] = window(want[at], got[at]);
  return [`first difference, line ${at + 1} of the record:`, `  expected: ${wanted}`, `  actual:   ${found}`];
}

/**
 * Two lists alike up to where one ends: the item one holds and the other lacks, on one line each,
 * rather than the bracket or comma where their layouts first part.
 */
function missingItem(expected: unknown[], actual: unknown[]): string[] | undefined {
  const same = (k: number) => JSON.stringify(expected[k]) === JSON.stringify(actual[k]);
  const shorter = Math.min(expected.length, actual.length);
  if (expected.length === actual.length || !Array.from({ length: shorter }, (_, k) => k).every(same)) return undefined;
  const item = (list: unknown[]) => (shorter < list.length ? JSON.stringify(list[shorter]) : '(none)');
  const [wanted, found] = window(item(expected), item(actual));
  return [`first difference, item ${shorter + 1} of the list:`, `  expected: ${wanted}`, `  actual:   ${found}`];
}

const READABLE = 240;
const BEFORE = 60;

function layout(value: unknown): string[] {
  return (typeof value === 'string' ? value : (JSON.stringify(value, null, 2) ?? String(value))).split('\n');
}

function window(expected: string | undefined, actual: string | undefined): [string, string] {
  const shown = (line: string | undefined) => (line === undefined ? '(no such line)' : line === '' ? '(empty)' : line);
  if (expected === undefined || actual === undefined) return [shown(expected), shown(actual)];
  if (Math.max(expected.length, actual.length) <= READABLE) return [shown(expected), shown(actual)];
  let column = 0;
  while (column < expected.length && expected[column] === actual[column]) column += 1;
  const start = Math.max(0, column - BEFORE);
  const cut = (line: string) =>
    `${start > 0 ? `…(from character ${start + 1}) ` : ''}${line.slice(start, start + READABLE)}${start + READABLE < line.length ? '…' : ''}`;
  return [cut(expected), cut(actual)];
}
