/**
 * Where a managed file holds line `number` of a tool's raw output, reading `line`, numbered from 1
 * as grep numbers it: the file keeps the output as the runtime's tool returned it, and a shell's
 * comes wrapped (lines of the runtime's own before the command's output, say), which adds lines and
 * removes none. The first line of the file reading `line` exactly at `number` or after it;
 * undefined when the file holds none.
 */
export function placeOfLine(file: string, number: number, line: string): number | undefined {
  const at = file.split('\n').findIndex((text, index) => index + 1 >= number && text === line);
  return at === -1 ? undefined : at + 1;
}
