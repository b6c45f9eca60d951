/**
 * The facts a read tool's text answer states, where the tool returns a page of a file or a
 * directory listing as text rather than as the kit's structured result: the seeds fix what a page
 * holds and that it says where to go on, not the shape or the wording that says it.
 */

/** A line of a file of numbered lines (`line N`) as a read tool shows it, perhaps after a line number of its own. */
const NUMBERED_LINE = /(?:^|[^\p{L}\p{N}])line (\d+)$/u;

/** A page of a file of numbered lines: the numbers of the lines it shows, in order, and the text around them. */
export interface TextPage {
  lines: number[];
  notes: string;
}

export function textPage(text: string): TextPage {
  const { items, notes } = sortedLines(text, (line) => {
    const numbered = NUMBERED_LINE.exec(line.trimEnd());
    return numbered ? Number(numbered[1]) : undefined;
  });
  return { lines: items, notes };
}

/** The lines of `text` that `read` makes an item of, in order, and the others, joined as notes. */
function sortedLines<T>(text: string, read: (line: string) => T | undefined): { items: T[]; notes: string } {
  const items: T[] = [];
  const notes: string[] = [];
  for (const line of text.split('\n')) {
    const item = read(line);
    if (item === undefined) notes.push(line);
    else items.push(item);
  }
  return { items, notes: notes.join('\n') };
}

/** Whether `notes` name the whole number `n`, not as a part of a longer one. */
export function namesNumber(notes: string, n: number): boolean {
  return new RegExp(`(?<!\\d)${n}(?!\\d)`).test(notes);
}

/** The numbers `notes` name that are greater than `count`, paths (with the digits of their names) left out. */
export function numbersPast(notes: string, count: number): number[] {
  return (notes.replace(/\S*\/\S*/g, '').match(/\d+/g) ?? []).map(Number).filter((n) => n > count);
}

/**
 * Whether a page's notes say where reading goes on after lines `from` to `to`: they name the next
 * line, `to + 1`, or they name the page's range (`from-to`, `from to to`) and a line past it (the
 * file's length), which places the next line as surely in any counting of the tool's own.
 */
export function saysWhereToGoOn(notes: string, from: number, to: number): boolean {
  if (namesNumber(notes, to + 1)) return true;
  const range = new RegExp(`(?<!\\d)${from}\\s*(?:-|–|to|through)\\s*${to}(?!\\d)`).test(notes);
  const further = (notes.match(/\d+/g) ?? []).some((n) => Number(n) > to);
  return range && further;
}

/** A directory listing as text: the entry names one a line, in order, and the other lines. */
export interface TextListing {
  names: string[];
  notes: string;
}

/**
 * Each line naming one entry, without a marker of its kind (`[DIR] `, a list bullet, a trailing
 * `/`); a line with words around a name (a heading, a count) is a note, not an entry.
 */
export function textListing(text: string): TextListing {
  const { items, notes } = sortedLines(text, (line) => {
    const name = line
      .trim()
      .replace(/^(?:\[[A-Za-z]+\]\s*|[-*•]\s+)/, '')
      .replace(/\/$/, '');
    return name !== '' && !/\s/.test(name) ? name : undefined;
  });
  return { names: items, notes };
}
