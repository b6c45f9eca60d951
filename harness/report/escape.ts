/** Text placed in HTML, in an element or an attribute. */
export function escapeHtml(text: string): string {
  return text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');
}

/** Table cells hold one line, and a pipe would end the cell. */
export function markdownCell(text: string): string {
  return escapeHtml(text).replace(/\|/g, '\\|').replace(/\n/g, ' ');
}
