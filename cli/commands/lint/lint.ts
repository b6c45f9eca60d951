import { kitPath } from '../../../harness/kit-root.js';
import { lintSuite, readRuleIndex, readScenarios, type IndexedScenario } from '../../../harness/suite/suite-index.js';
import { KitInputError } from '../../../harness/input-error.js';
import { fieldDesigns, openChoices } from '../../../harness/suite/open-choices.js';
import { lintClauses, lintMutantClauses, readClauses } from '../../../harness/suite/clauses.js';
import { lintRuleSubjects, readRuleSubjects } from '../../../harness/suite/rule-subjects.js';
import { protocolSchema } from '../../../harness/protocol/protocol-schema.js';

/** Refuses to run a suite whose tags, checks, rule index and clause table disagree: its verdicts would mislead. */
export function lintKit(): IndexedScenario[] {
  const scenarios = readScenarios(kitPath('features'));
  const rules = readRuleIndex(kitPath('rules', 'index.md'));
  const clauses = readClauses(kitPath('rules', 'index.md'));
  // A clause's subjects are checked as a rule's are: each a protocol command or a part of one.
  const subjects = readRuleSubjects(kitPath('rules', 'index.md'));
  for (const { rule, about } of clauses.clauses)
    if (about.length > 0)
      subjects.byRule.set(rule, [
        ...(subjects.byRule.get(rule) ?? []),
        ...about.map((name) => ({ name, setUp: false })),
      ]);
  const problems = [
    ...lintSuite(rules, scenarios),
    ...lintClauses(clauses, rules, scenarios),
    ...lintMutantClauses(clauses, kitPath('selfcheck', 'mutants')),
    ...lintRuleSubjects(subjects, new Set(Object.keys(protocolSchema().$defs.commands))),
    ...[...openChoices().values(), ...fieldDesigns().values()].flatMap((entry) =>
      entry.rules
        .filter((rule) => !rules.includes(rule))
        .map((rule) => `rules/index.md: ${entry.name} names ${rule}, which is not indexed`),
    ),
  ];
  if (problems.length > 0) {
    // One line per problem, each naming its file and line: a list folded into one line reads as none.
    for (const problem of problems) process.stderr.write(`kit: ${problem}\n`);
    throw new KitInputError('the suite', `${problems.length} problem(s), each on a line above`);
  }
  return scenarios;
}
