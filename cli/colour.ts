/** Colour functions for one output stream; each returns its text unchanged when colour is off. */
export interface Palette {
  red(text: string): string;
  green(text: string): string;
  dim(text: string): string;
  bold(text: string): string;
}

/**
 * Colour only where a person reads it: a terminal, unless NO_COLOR is set (no-color.org).
 * FORCE_COLOR turns it on elsewhere, as most command-line tools do.
 */
export function paletteFor(stream: { isTTY?: boolean }, env: NodeJS.ProcessEnv = process.env): Palette {
  const on = env.NO_COLOR ? false : env.FORCE_COLOR && env.FORCE_COLOR !== '0' ? true : Boolean(stream.isTTY);
  const style = (open: number, close: number) => (text: string) => (on ? `\x1b[${open}m${text}\x1b[${close}m` : text);
  return { red: style(31, 39), green: style(32, 39), dim: style(2, 22), bold: style(1, 22) };
}
