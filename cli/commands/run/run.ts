import { writeFileSync } from 'node:fs';
import { runConformance } from '../../../harness/suite/conformance-run.js';
import { formatSummary, ruleOutcomes } from '../../../harness/report/summary.js';
import { lintKit } from '../lint/lint.js';
import { KitInputError } from '../../../harness/input-error.js';
import { ExitCode } from '../../exit-codes.js';
import { progressLine } from '../../progress.js';
import { runtimeName, runtimeSelection } from '../../runtime-options.js';
import type { RunArgs } from './command.js';

const RULE_ID = /^[A-Z]{3}-\d{2}$/;

export async function run(args: RunArgs): Promise<number> {
  lintKit();
  const progress = progressLine(process.stderr);
  const results = await runConformance({
    runtime: runtimeSelection(args),
    timeoutScale: args.timeoutScale,
    validate: args.validate,
    tags: selection(args),
    formats: args.format,
    failFast: args.failFast,
    onScenario: (result, done, total) => progress.update(`${done}/${total} scenarios · last: ${result.status} ${result.uri}:${result.line}`),
  });
  progress.clear();
  const name = runtimeName(args);
  process.stdout.write(`${formatSummary(results, name)}\n`);
  if (args.results) {
    const rules = Object.fromEntries(ruleOutcomes(results));
    writeFileSync(args.results, `${JSON.stringify({ runtime: name, rules, scenarios: results }, null, 2)}\n`);
  }
  return results.some((r) => r.status === 'failed') ? ExitCode.ConformanceFailure : ExitCode.Passed;
}

function selection(args: RunArgs): string | undefined {
  const rules = args.rule ?? [];
  for (const rule of rules) {
    if (!RULE_ID.test(rule)) throw new KitInputError('--rule', `"${rule}" is not a rule ID like INB-07`);
  }
  const parts = [args.tags && `(${args.tags})`, rules.length > 0 && `(${rules.map((r) => `@${r}`).join(' or ')})`];
  const expression = parts.filter(Boolean).join(' and ');
  return expression || undefined;
}
