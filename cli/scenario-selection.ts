import type { Argv } from 'yargs';
import { KitInputError } from '../harness/input-error.js';

export interface SelectionArgs {
  tags?: string;
  rule?: string[];
}

const RULE_ID = /^[A-Z]{3}-\d{2}$/;

/** The options that pick scenarios, shared by the commands that run the suite. */
export function withScenarioSelection<T>(yargs: Argv<T>) {
  return yargs
    .option('tags', { type: 'string', describe: "Cucumber tag expression, e.g. '@area:inbox and not @RUN-07'" })
    .option('rule', { type: 'string', array: true, describe: 'Only the scenarios of these rule IDs, e.g. INB-07' });
}

/** One Cucumber tag expression for `--tags` and `--rule` together, or none for the whole suite. */
export function tagExpression(args: SelectionArgs): string | undefined {
  const rules = args.rule ?? [];
  for (const rule of rules) {
    if (!RULE_ID.test(rule)) throw new KitInputError('--rule', `"${rule}" is not a rule ID like INB-07`);
  }
  const parts = [args.tags && `(${args.tags})`, rules.length > 0 && `(${rules.map((r) => `@${r}`).join(' or ')})`];
  const expression = parts.filter(Boolean).join(' and ');
  return expression || undefined;
}
