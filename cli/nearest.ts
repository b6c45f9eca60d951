/** What a misspelt command, option or rule ID most likely meant. */

function editDistance(a: string, b: string): number {
  let row = [...Array(b.length + 1).keys()];
  for (let i = 1; i <= a.length; i++) {
    const next = [i];
    for (let j = 1; j <= b.length; j++)
      next[j] = Math.min(row[j]! + 1, next[j - 1]! + 1, row[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    row = next;
  }
  return row[b.length]!;
}

/** The candidates nearest `word`, within two edits (fewer than its length), at most three. */
export function nearest(word: string, candidates: readonly string[]): string[] {
  const near = candidates
    .map((candidate) => ({ candidate, distance: editDistance(word, candidate) }))
    .filter(({ distance }) => distance <= 2 && distance < word.length);
  const least = Math.min(...near.map(({ distance }) => distance));
  return near
    .filter(({ distance }) => distance === least)
    .map(({ candidate }) => candidate)
    .sort()
    .slice(0, 3);
}

/** ` (did you mean X or Y?)`, or nothing when nothing is near. */
export const didYouMean = (near: readonly string[]) => (near.length > 0 ? ` (did you mean ${near.join(' or ')}?)` : '');

/**
 * The rule IDs a mistyped one most likely meant: the same ID written the kit's way (`inb-7` is
 * INB-07), else the rules of its area, else the IDs within two edits.
 */
export function nearRules(typed: string, known: readonly string[]): string[] {
  const parts = /^([a-z]{3})-?(\d{1,2})$/i.exec(typed.trim());
  const canonical = parts && `${parts[1]!.toUpperCase()}-${parts[2]!.padStart(2, '0')}`;
  if (canonical && canonical !== typed && known.includes(canonical)) return [canonical];
  const area = known.filter((rule) => canonical && rule.startsWith(`${canonical.slice(0, 3)}-`)).sort();
  if (area.length > 0) return [`one of ${area[0]} to ${area.at(-1)}`];
  return nearest(typed.toUpperCase(), known);
}
