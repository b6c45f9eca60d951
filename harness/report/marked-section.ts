/**
 * Replaces a generated section of a hand-written document, `section` starting with the marker
 * `start` and ending with `end`; the document must already hold both markers.
 */
export function withMarkedSection(document: string, start: string, end: string, section: string): string {
  const from = document.indexOf(start);
  const to = document.indexOf(end);
  if (from < 0 || to < from) throw new Error(`the document has no ${start} … ${end} markers`);
  return `${document.slice(0, from)}${section}${document.slice(to + end.length)}`;
}
