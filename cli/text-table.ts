/** Cells longer than this are cut with an ellipsis; `--json` output keeps everything. */
const CELL_WIDTH = 72;

/** Rows under a header, in aligned columns, each cell on one line. */
export function formatTable(header: string[], rows: unknown[][]): string[] {
  const cells = [header, ...rows.map((row) => row.map(cellText))];
  const widths = header.map((_, column) => Math.max(...cells.map((row) => row[column]!.length)));
  return cells.map((row) =>
    row
      .map((cell, column) => (column === row.length - 1 ? cell : cell.padEnd(widths[column]!)))
      .join('  ')
      .trimEnd(),
  );
}

function cellText(value: unknown): string {
  const text = (
    value === null || value === undefined ? '' : typeof value === 'string' ? value : JSON.stringify(value)
  ).replace(/\s*\n\s*/g, ' ⏎ ');
  return text.length > CELL_WIDTH ? `${text.slice(0, CELL_WIDTH - 1)}…` : text;
}
