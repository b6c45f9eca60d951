import type { Clause } from '../harness/suite/clauses.js';
import { clauseName } from './clause-judging.js';
import type { Mutant } from './mutants/index.js';

/**
 * How many mutants name each clause of the clause table, and the clauses fewer than two name: a
 * clause no wrong implementation was ever judged by may have scenarios that cannot fail it.
 */
export function clauseCountLines(table: readonly Clause[], mutants: readonly Mutant[]): string[] {
  const named = new Map<string, number>();
  for (const mutant of mutants)
    for (const clause of new Set(mutant.clauses)) named.set(clause, (named.get(clause) ?? 0) + 1);
  const count = (clause: Clause) => named.get(clauseName(clause)) ?? 0;
  const one = table.filter((clause) => count(clause) === 1);
  const none = table.filter((clause) => count(clause) === 0);
  const listed = (clause: Clause) => `  ${clauseName(clause)} ${clause.text}  rules/index.md:${clause.line}\n`;
  return [
    `clauses: ${table.length}; 2 or more mutants: ${table.length - one.length - none.length}; one: ${one.length}; none: ${none.length}\n`,
    ...(one.length > 0 ? ['named by one mutant:\n', ...one.map(listed)] : []),
    ...(none.length > 0 ? ['named by no mutant:\n', ...none.map(listed)] : []),
  ];
}
