/**
 * Whether texts are told to the model after a mark (the last message holding it), each once and
 * in the order given: nothing when they are, else what is not so, with what is told after the mark
 * (or, the mark missing, every message) for a reader to compare.
 */
export function toldAfter(
  messages: readonly string[],
  mark: string,
  texts: readonly string[],
  request: string,
): string | undefined {
  const at = messages.findLastIndex((message) => message.includes(mark));
  if (at < 0) return `no message of ${request} holds "${mark}"; its messages:\n${messages.join('\n') || '(none)'}`;
  const told = messages.slice(at + 1).join('\n');
  const where = `after "${mark}" in ${request}`;
  const shown = `; told after it:\n${told || '(nothing)'}`;
  for (const text of texts) {
    const times = told.split(text).length - 1;
    if (times === 0) return `"${text}" is not told ${where}${shown}`;
    if (times > 1) return `"${text}" is told ${times} times, not once, ${where}${shown}`;
  }
  const inOrder = [...texts].sort((a, b) => told.indexOf(a) - told.indexOf(b));
  const quoted = (list: readonly string[]) => list.map((text) => `"${text}"`).join(', ');
  return inOrder.every((text, i) => text === texts[i])
    ? undefined
    : `${quoted(texts)} are told ${where} in the order ${quoted(inOrder)}${shown}`;
}
