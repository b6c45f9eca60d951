import { readFileSync } from 'node:fs';
import { kitPath } from '../kit-root.js';

/** A choice the seeds leave open, as the rule index lists it. */
export interface OpenChoice {
  name: string;
  statement: string;
  /** The readings the seeds allow; `any` accepts every value. */
  readings: string[] | 'any';
  rules: string[];
}

const SECTION = '## Open choices';
const ENTRY = /^- \*\*([a-z][\w.-]*)\*\*: (.+?) Readings: (.+?)\. Rules: ([A-Z]{3}-\d{2}(?:, [A-Z]{3}-\d{2})*)\.$/;

/** Reads the open choices of the rule index's "Open choices" section; a malformed entry names its line. */
export function readOpenChoices(file: string): Map<string, OpenChoice> {
  const lines = readFileSync(file, 'utf8').split('\n');
  const start = lines.indexOf(SECTION);
  const choices = new Map<string, OpenChoice>();
  if (start < 0) return choices;
  for (let i = start + 1; i < lines.length && !lines[i]!.startsWith('## '); i++) {
    const line = lines[i]!;
    if (!line.startsWith('- ')) continue;
    const match = ENTRY.exec(line);
    if (!match)
      throw new Error(
        `${file}:${i + 1}: an open choice is "- **name**: statement. Readings: \`a\`, \`b\`. Rules: ID, ID."`,
      );
    const [, name, statement, readings, rules] = match;
    choices.set(name!, {
      name: name!,
      statement: statement!,
      readings: readings === 'any' ? 'any' : readings!.split(', ').map((reading) => reading.replace(/^`|`$/g, '')),
      rules: rules!.split(', '),
    });
  }
  return choices;
}

let catalogue: Map<string, OpenChoice> | undefined;

/** The kit's open choices, read once per process. */
export function openChoices(): Map<string, OpenChoice> {
  catalogue ??= readOpenChoices(kitPath('rules', 'index.md'));
  return catalogue;
}
