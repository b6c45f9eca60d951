/**
 * A failed check in the kit's words: what was expected and what was seen. Chai words a check after
 * its own API ("expected false to equal true", "expected -1 to be at least +0"), and Cucumber adds
 * a diff of two primitives; neither tells a reader more than the step and the values do.
 */

const CLIPPED_AT = 200;

const clip = (text: string) => (text.length > CLIPPED_AT ? `${text.slice(0, CLIPPED_AT)}…` : text);

/** A value as a failure message shows it: an empty text or list, or nothing at all, reads as such. */
export function shown(value: unknown): string {
  if (value === undefined || value === null) return '(none)';
  if (typeof value === 'string') return value === '' ? '(empty)' : clip(JSON.stringify(value));
  if (typeof value === 'boolean') return value ? 'yes' : 'no';
  if (Array.isArray(value) && value.length === 0) return '(none)';
  if (typeof value !== 'object') return String(value);
  if (value instanceof RegExp) return String(value);
  try {
    return clip(JSON.stringify(value));
  } catch {
    return String(value);
  }
}

/** A text a message quotes whole, on lines of its own: `(empty)` rather than nothing. */
export const orEmpty = (text: string | undefined) => (text === undefined || text.trim() === '' ? '(empty)' : text);

/** Names a message lists: `(none)` rather than nothing. */
export const listed = (names: readonly string[]) => (names.length === 0 ? '(none)' : names.join(', '));

const CHECKS = [
  'deeply equal',
  'equal',
  'be at least',
  'be at most',
  'be above',
  'be below',
  'be within',
  'have a length of',
  'have a length above',
  'have a length below',
  'have a length at least',
  'have a length at most',
  'deep include',
  'include',
  'match',
  'be an',
  'be a',
  'be one of',
  'have deep property',
  'have property',
];

const CHAI_CHECK = new RegExp(`^(?:([\\s\\S]*?): )?expected ([\\s\\S]*?) to (not )?(${CHECKS.join('|')}) ([\\s\\S]*)$`);

interface ChaiError extends Error {
  actual?: unknown;
  expected?: unknown;
  showDiff?: boolean;
}

/** A value as chai printed it, where the error does not carry it, in the quotes and zero `shown` writes. */
function chaiValue(text: string): string {
  const quoted = /^'([\s\S]*)'$/.exec(text);
  if (quoted) return quoted[1] === '' ? '(empty)' : `"${quoted[1]!.replaceAll("\\'", "'")}"`;
  return text.replace(/(^|[\s[(])\+0\b/g, '$10');
}

/** What a chai check expected, in words, and what it saw when that is not the asserted value itself. */
function expectation(
  check: string,
  negated: boolean,
  rest: string,
  error: ChaiError,
): { wanted: string; seen?: string } {
  const expected = error.expected !== undefined ? shown(error.expected) : chaiValue(rest);
  const subject = typeof error.actual === 'string' ? 'text' : Array.isArray(error.actual) ? 'a list' : 'a record';
  switch (check) {
    case 'equal':
    case 'deeply equal':
      return { wanted: negated ? `anything but ${expected}` : expected };
    case 'be at least':
      return { wanted: `at least ${expected}` };
    case 'be at most':
      return { wanted: `at most ${expected}` };
    case 'be above':
      return { wanted: `more than ${expected}` };
    case 'be below':
      return { wanted: `less than ${expected}` };
    case 'be within':
      return { wanted: `between ${rest.replace('..', ' and ')}` };
    case 'include':
    case 'deep include': {
      const wanted = `${subject} ${negated ? 'without' : 'including'} ${expected}`;
      // A text that holds what it must not: where, rather than its start.
      const part = typeof error.expected === 'string' ? error.expected : /^'([\s\S]*)'$/.exec(rest)?.[1];
      if (!negated || typeof error.actual !== 'string' || part === undefined) return { wanted };
      return { wanted, seen: around(error.actual, part.replaceAll("\\'", "'")) };
    }
    case 'match':
      return { wanted: `text ${negated ? 'not ' : ''}matching ${rest}` };
    case 'be a':
    case 'be an':
      return { wanted: `${negated ? 'anything but ' : ''}${check.slice(3)} ${rest}` };
    case 'be one of':
      return { wanted: `one of ${Array.isArray(error.expected) ? error.expected.map(shown).join(', ') : rest}` };
    case 'have property':
      return { wanted: `${negated ? 'no' : 'a'} property ${chaiValue(rest)}` };
    case 'have deep property':
      return { wanted: `${/^'([^']*)'/.exec(rest)?.[1] ?? rest} ${expected}` };
    default: {
      // A length check: chai's actual is the length it found, its message "<bound> but got <length>".
      const [, bound = rest, length = shown(error.actual)] = /^(\S+) but got (\S+)$/.exec(rest) ?? [];
      const words = LENGTH_WORDS[check.slice('have a length '.length)] ?? '';
      return { wanted: `${words}${chaiValue(bound)} item(s)`, seen: chaiValue(length) };
    }
  }
}

/** Where `part` first stands in `text`, with some of the text either side. */
function around(text: string, part: string): string {
  const at = text.indexOf(part);
  if (at < 0) return shown(text);
  const from = Math.max(0, at - 120);
  const to = Math.min(text.length, at + part.length + 120);
  const excerpt = `${from > 0 ? '…' : ''}${text.slice(from, to)}${to < text.length ? '…' : ''}`;
  return `it at character ${at + 1} of ${text.length}: ${JSON.stringify(excerpt)}`;
}

const LENGTH_WORDS: Record<string, string> = {
  of: '',
  above: 'more than ',
  below: 'less than ',
  'at least': 'at least ',
  'at most': 'at most ',
};

/**
 * A chai assertion's error reworded in place: `<what was checked>: expected <this>, saw <that>`,
 * a label of several lines keeping its first line before the values and the rest after them, so
 * the lines a listing shows first say what failed. Any other error is returned as it is.
 */
export function inKitWords(error: unknown): unknown {
  if (!(error instanceof Error) || error.name !== 'AssertionError') return error;
  const match = CHAI_CHECK.exec(error.message);
  if (!match) return error;
  const [, label, actualText = '', not, check = '', rest = ''] = match;
  const chai = error as ChaiError;
  const { wanted, seen } = expectation(check, not !== undefined, rest, chai);
  const saw = seen ?? ('actual' in chai ? shown(chai.actual) : chaiValue(actualText));
  const [head, ...body] = (label ?? '').split('\n');
  error.message = [`${head ? `${head.replace(/:$/, '')}: ` : ''}expected ${wanted}, saw ${saw}`, ...body].join('\n');
  // Cucumber's diff of two primitives repeats the line above; two records or texts get their first difference.
  const comparable = (value: unknown) => typeof value === 'string' || (typeof value === 'object' && value !== null);
  if (!comparable(chai.expected) || !comparable(chai.actual)) chai.showDiff = false;
  // The message is the whole account: no "AssertionError:" before it.
  Object.defineProperty(error, 'name', { value: '' });
  return error;
}
