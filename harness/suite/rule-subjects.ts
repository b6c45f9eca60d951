import { readFileSync } from 'node:fs';
import { isPartOfCommand } from '../protocol/protocol-schema.js';

/**
 * The protocol commands, or parts of one, a rule is about, written in rules/index.md under the
 * rule's line: `  - About: \`session.wake\`.` or `\`prompt.admit.receipt\``. A scenario that reached
 * such a command through the adapter's own emulation (its `hello` lists it, or that part, under
 * `emulated`) saw the adapter do the thing, not the runtime: it gives that rule no verdict,
 * whatever its checks said, and where the runtime has no such thing at all, the rule is not
 * implemented.
 *
 * `  - Rests on: \`prompt.admit.held\`.` names a command a rule's scenarios only set it up with
 * (history order shown with prompts held and woken in another order): emulated, it leaves what the
 * checks saw the adapter's doing, so no verdict either way; but a runtime without it does not lack
 * what the rule is about, so never "not implemented".
 */
const RULE_LINE = /^- \*\*([A-Z]{3}-\d{2})\*\* /;
const SUBJECT_LINE = /^ {2}- (About|Rests on): (`[a-z][a-z0-9.-]*`(?:, `[a-z][a-z0-9.-]*`)*)\.$/;

export interface RuleSubject {
  name: string;
  /** Named under `Rests on:`: the rule's scenarios set it up with the command, the rule is not about it. */
  setUp: boolean;
}

export interface RuleSubjects {
  byRule: Map<string, RuleSubject[]>;
  /** Lines that start like a subject line but do not follow its form. */
  malformed: number[];
}

export function readRuleSubjects(file: string): RuleSubjects {
  const subjects: RuleSubjects = { byRule: new Map(), malformed: [] };
  let rule: string | undefined;
  readFileSync(file, 'utf8')
    .split('\n')
    .forEach((line, i) => {
      rule = RULE_LINE.exec(line)?.[1] ?? (line.startsWith(' ') ? rule : undefined);
      if (!line.startsWith('  - About:') && !line.startsWith('  - Rests on:')) return;
      const [, kind, names] = SUBJECT_LINE.exec(line) ?? [];
      if (!names || !rule) subjects.malformed.push(i + 1);
      else
        subjects.byRule.set(rule, [
          ...(subjects.byRule.get(rule) ?? []),
          ...names.split(', ').map((name) => ({ name: name.slice(1, -1), setUp: kind === 'Rests on' })),
        ]);
    });
  return subjects;
}

/** Problems of the subject lines: a malformed one, or a name that is no protocol command nor a part of one. */
export function lintRuleSubjects(subjects: RuleSubjects, commands: ReadonlySet<string>): string[] {
  const problems = subjects.malformed.map(
    (line) =>
      `rules/index.md:${line}: a subject line reads "  - About: \`<command>\`, \`<command>\`." or "  - Rests on: \`<command>\`."`,
  );
  const known = (name: string) => commands.has(name) || [...commands].some((cmd) => name.startsWith(`${cmd}.`));
  for (const [rule, names] of subjects.byRule) {
    for (const { name } of names.filter(({ name }) => !known(name)))
      problems.push(`rules/index.md: ${rule} is about \`${name}\`, which is no protocol command`);
  }
  return problems;
}

/**
 * Whether an adapter's emulated name covers a rule's subject: the same command or part, the
 * whole command of which the subject is a part (`prompt.admit` covers `prompt.admit.receipt`), or
 * a part of the subject (`session.wake.empty` covers `session.wake`): a call of the command that
 * took the emulated part was answered by the adapter, whatever the rule asks of the rest.
 */
export function covers(emulated: string, subject: string): boolean {
  return isPartOfCommand(subject, emulated) || isPartOfCommand(emulated, subject);
}
