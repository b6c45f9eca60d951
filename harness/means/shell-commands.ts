/**
 * The kit's tools as POSIX `sh` commands of the same effect, for a runtime whose only controllable
 * tool is its own shell. Each runs in the session's location and leaves the same side effects as
 * the kit tool it stands for, so the scenarios' checks of the workspace hold unchanged.
 */

import { PROSE_SENTENCE, prose } from './prose.js';

/** Where the kit creates the file that opens a gate: `.kit-gates/<name>` in the location. */
export const GATE_DIRECTORY = '.kit-gates';

/** A gate command gives up after this many polls of a tenth of a second, so no run leaves it behind. */
const GATE_POLLS = 6_000;

/** One sh word holding `text` exactly. */
export function quote(text: string): string {
  return `'${text.split("'").join(`'\\''`)}'`;
}

/** Appends `text` and a newline to echo.log, and prints `text`. */
export function echoCommand(text: string): string {
  return `printf '%s\\n' ${quote(text)} >> echo.log && printf '%s' ${quote(text)}`;
}

/** Prints `message` on stderr and exits with status 1. */
export function failCommand(message: string): string {
  return `printf '%s\\n' ${quote(message)} >&2; exit 1`;
}

/** Prints `produced` on stderr and exits with status 1: a failing command as short as its output is long. */
export function failProducingCommand(produced: ProducedText): string {
  return `{ ${produceCommand(produced)}; } >&2; exit 1`;
}

/**
 * Appends `name` to gate.log, waits until `.kit-gates/<name>` exists, then prints `gate <name>
 * opened`. It counts its polls by the length of a word it grows, with no `$(( ))`: shells that
 * guard against command substitution refuse any `$(`.
 */
export function gateCommand(name: string): string {
  const file = quote(`${GATE_DIRECTORY}/${name}`);
  return (
    `printf '%s\\n' ${quote(name)} >> gate.log && i=; ` +
    `while [ ! -e ${file} ] && [ \${#i} -lt ${GATE_POLLS} ]; do sleep 0.1; i=.$i; done; ` +
    `[ -e ${file} ] && printf 'gate %s opened' ${quote(name)}`
  );
}

/**
 * Prints `producedText(produced)`, then waits at the gate `name` as `gateCommand` does, silently:
 * the output is the produced text alone, and the call runs on once it is printed.
 */
export function produceThenGateCommand(produced: ProducedText, name: string): string {
  return `${produceCommand(produced)}; { ${gateCommand(name)}; } > /dev/null`;
}

/** What a `produce` call prints, described so that a large output stays a short command. */
export type ProducedText =
  /** `line 1<suffix>` to `line <count><suffix>`, joined by newlines, with no newline at the end. */
  | { kind: 'numbered'; count: number; suffix: string }
  /**
   * One line of `count` copies of the one-byte character `char`, between the ASCII texts of
   * `between` if given: ends unlike the middle tell a cut keeping the head alone from one keeping both.
   */
  | { kind: 'repeated'; char: string; count: number; between?: readonly [string, string] }
  /**
   * One line of `count` characters of plain English (`prose`): as large as a repeated character
   * to a count of characters, it weighs as much to a real tokenizer, which a long run of one
   * character can send into a slow path.
   */
  | { kind: 'prose'; count: number };

export function producedText(produced: ProducedText): string {
  if (produced.kind === 'prose') return prose(produced.count);
  if (produced.kind === 'repeated') {
    const [first, last] = produced.between ?? ['', ''];
    return `${first}${produced.char.repeat(produced.count)}${last}`;
  }
  return Array.from({ length: produced.count }, (_, i) => `line ${i + 1}${produced.suffix}`).join('\n');
}

/** Prints exactly `producedText(produced)`. */
export function produceCommand(produced: ProducedText): string {
  if (produced.kind === 'prose') return `yes ${quote(PROSE_SENTENCE)} | tr -d '\\n' | head -c ${produced.count}`;
  if (produced.kind === 'repeated') {
    if (Buffer.byteLength(produced.char) !== 1)
      throw new Error(`a repeated output is of one-byte characters, not "${produced.char}"`);
    const repeated = `head -c ${produced.count} /dev/zero | tr '\\000' ${quote(produced.char)}`;
    if (!produced.between) return repeated;
    const [first, last] = produced.between;
    return `{ printf %s ${quote(first)}; ${repeated}; printf %s ${quote(last)}; }`;
  }
  if (produced.suffix.includes('\\')) throw new Error('a numbered output suffix has no backslash');
  return `awk -v n=${produced.count} -v s=${quote(produced.suffix)} 'BEGIN { for (i = 1; i <= n; i++) printf "line %d%s%s", i, s, (i < n ? "\\n" : "") }'`;
}
