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

/**
 * A way the runtimes of the field differ that the seeds decide: the kit names the design a runtime
 * took beside its verdict, and judges the rules a design the seeds do not allow breaks.
 */
export interface FieldDesign {
  name: string;
  statement: string;
  designs: string[];
  /** The designs the seeds allow. */
  allowed: string[];
  rules: string[];
}

const RULES = '([A-Z]{3}-\\d{2}(?:, [A-Z]{3}-\\d{2})*)';
const CHOICES = '## Open choices';
const CHOICE = new RegExp(`^- \\*\\*([a-z][\\w.-]*)\\*\\*: (.+?) Readings: (.+?)\\. Rules: ${RULES}\\.$`);
const DESIGNS = '## Designs the seeds decide';
const DESIGN = new RegExp(
  `^- \\*\\*([a-z][\\w.-]*)\\*\\*: (.+?) Designs: (.+?)\\. The seeds allow: (.+?)\\. Rules: ${RULES}\\.$`,
);

const names = (list: string) => list.split(', ').map((name) => name.replace(/^`|`$/g, ''));

/** The matched entries of one section of the rule index; an entry that does not match names its line. */
function entries(file: string, section: string, entry: RegExp, shape: string): RegExpExecArray[] {
  const lines = readFileSync(file, 'utf8').split('\n');
  const start = lines.indexOf(section);
  if (start < 0) return [];
  const found: RegExpExecArray[] = [];
  for (let i = start + 1; i < lines.length && !lines[i]!.startsWith('## '); i++) {
    if (!lines[i]!.startsWith('- ')) continue;
    const match = entry.exec(lines[i]!);
    if (!match) throw new Error(`${file}:${i + 1}: ${shape}`);
    found.push(match);
  }
  return found;
}

/** Reads the open choices of the rule index's "Open choices" section; a malformed entry names its line. */
export function readOpenChoices(file: string): Map<string, OpenChoice> {
  const shape = 'an open choice is "- **name**: statement. Readings: `a`, `b`. Rules: ID, ID."';
  return new Map(
    entries(file, CHOICES, CHOICE, shape).map(([, name, statement, readings, rules]) => [
      name!,
      {
        name: name!,
        statement: statement!,
        readings: readings === 'any' ? 'any' : names(readings!),
        rules: names(rules!),
      },
    ]),
  );
}

/** Reads the designs of the rule index's "Designs the seeds decide" section. */
export function readFieldDesigns(file: string): Map<string, FieldDesign> {
  const shape = 'a design is "- **name**: statement. Designs: `a`, `b`. The seeds allow: `a`. Rules: ID, ID."';
  return new Map(
    entries(file, DESIGNS, DESIGN, shape).map(([, name, statement, designs, allowed, rules]) => [
      name!,
      { name: name!, statement: statement!, designs: names(designs!), allowed: names(allowed!), rules: names(rules!) },
    ]),
  );
}

let catalogue: Map<string, OpenChoice> | undefined;
let designCatalogue: Map<string, FieldDesign> | undefined;

/** The kit's open choices, read once per process. */
export function openChoices(): Map<string, OpenChoice> {
  catalogue ??= readOpenChoices(kitPath('rules', 'index.md'));
  return catalogue;
}

/** The designs of the field the kit names, read once per process. */
export function fieldDesigns(): Map<string, FieldDesign> {
  designCatalogue ??= readFieldDesigns(kitPath('rules', 'index.md'));
  return designCatalogue;
}
