import type { Argv } from 'yargs';
import parseTagExpression from '@cucumber/tag-expressions';
import { KitInputError } from '../harness/input-error.js';
import { nonEmpty, nonEmptyList, textOption } from './option-values.js';
import { didYouMean, nearest, nearRules } from './nearest.js';
import { readRuleIndex, type IndexedScenario } from '../harness/suite/suite-index.js';
import { kitPath } from '../harness/kit-root.js';

export interface SelectionArgs {
  tags?: string;
  rule?: string[];
}

const RULE_ID = /^[A-Z]{3}-\d{2}$/;

/** The options that pick scenarios, shared by the commands that run the suite. */
export function withScenarioSelection<T>(yargs: Argv<T>) {
  return yargs
    .option('tags', {
      ...textOption('--tags', "Cucumber tag expression, e.g. '@area:inbox and not @RUN-07'"),
      coerce: tagExpressionOf,
    })
    .option('rule', {
      type: 'string',
      array: true,
      coerce: ruleIds,
      describe: 'Only the scenarios of these rule IDs, e.g. INB-07',
    });
}

/** Rule IDs as the kit writes them: `inb-07` is INB-07. */
function ruleIds(values: string[]): string[] {
  const rules = nonEmptyList('--rule')(values).map((rule) => rule.toUpperCase());
  for (const [i, rule] of rules.entries()) {
    if (!RULE_ID.test(rule))
      throw new KitInputError(
        '--rule',
        `"${values[i]}" is not a rule ID like INB-07${didYouMean(nearRules(values[i]!, readRuleIndex(kitPath('rules', 'index.md'))))}`,
      );
  }
  return rules;
}

/**
 * A malformed expression is refused before anything runs. It is parsed as the kit uses it too,
 * in parentheses, where a trailing backslash escapes the closing one.
 */
function tagExpressionOf(text: string): string {
  nonEmpty('--tags')(text);
  try {
    parseTagExpression(text);
    parseTagExpression(`(${text})`);
  } catch (error) {
    const reason = /syntax error: (.*)$/.exec((error as Error).message)?.[1] ?? (error as Error).message;
    throw new KitInputError('--tags', `"${text}" is not a tag expression: ${reason.replace(/\.$/, '').toLowerCase()}`);
  }
  // Cucumber takes a bare word for a tag no scenario carries; it is more likely a tag without its @.
  const bare = words(text).find((word) => !OPERATORS.has(word) && !word.startsWith('@'));
  if (bare)
    throw new KitInputError('--tags', `"${bare}" is no tag: a tag starts with @ (@${bare}), joined by and, or, not`);
  return text;
}

const OPERATORS = new Set(['and', 'or', 'not']);

/** The words of a tag expression: its tags and operators, without parentheses. */
function words(expression: string): string[] {
  return expression.split(/[\s()]+/).filter(Boolean);
}

/**
 * The rules a tag expression selects by their rule tags alone (`@INB-07`, `@INB-07 or @INB-08`):
 * a run so selected counts those rules, as `--rule` does, not the others its scenarios carry.
 */
export function rulesNamedBy(expression: string | undefined): string[] | undefined {
  if (!expression) return undefined;
  const tokens = words(expression);
  const rules = tokens.filter((_, i) => i % 2 === 0).map((tag) => tag.slice(1));
  const joinedByOr = tokens.every((token, i) => (i % 2 === 1 ? token === 'or' : token.startsWith('@')));
  return joinedByOr && tokens.length % 2 === 1 && rules.every((rule) => RULE_ID.test(rule)) ? rules : undefined;
}

/**
 * ` (did you mean @area:inbox?)` for the tags of an expression that no scenario carries, or
 * nothing: a misspelt tag selects nothing rather than failing to parse.
 */
export function nearTags(expression: string, scenarios: readonly IndexedScenario[]): string {
  const carried = new Set(
    scenarios.flatMap((scenario) => [...scenario.tags, ...scenario.rows.flatMap((row) => row.tags)]),
  );
  const unknown = (expression.match(/@[^\s()]+/g) ?? []).filter((tag) => !carried.has(tag));
  return didYouMean([...new Set(unknown.flatMap((tag) => nearest(tag, [...carried])))]);
}

/** One Cucumber tag expression for `--tags` and `--rule` together, or none for the whole suite. */
export function tagExpression(args: SelectionArgs): string | undefined {
  const rules = args.rule ?? [];
  const parts = [args.tags && `(${args.tags})`, rules.length > 0 && `(${rules.map((r) => `@${r}`).join(' or ')})`];
  const expression = parts.filter(Boolean).join(' and ');
  return expression || undefined;
}
