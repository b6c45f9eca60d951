/** One line that rewrites itself on a terminal; silent elsewhere, so logs and CI output stay clean. */
export function progressLine(stream: NodeJS.WriteStream): { update(text: string): void; clear(): void } {
  if (!stream.isTTY) return { update() {}, clear() {} };
  const width = () => Math.max(20, (stream.columns ?? 80) - 1);
  return {
    update: (text) => stream.write(`\r${text.slice(0, width()).padEnd(width())}`),
    clear: () => stream.write(`\r${' '.repeat(width())}\r`),
  };
}
