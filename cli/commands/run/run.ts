import { resolve } from 'node:path';
import { existsSync, writeFileSync } from 'node:fs';
import { runConformance } from '../../../harness/suite/conformance-run.js';
import { formatSummary, ruleOutcomes } from '../../../harness/report/summary.js';
import { lintKit } from '../lint/lint.js';
import { KitInputError } from '../../../harness/input-error.js';
import { kitPath } from '../../../harness/kit-root.js';
import { ExitCode } from '../../exit-codes.js';
import { REFERENCE_RUNTIME } from '../../../harness/runtime-target.js';
import { progressLine } from '../../progress.js';
import type { RunArgs } from './command.js';

const RULE_ID = /^[A-Z]{3}-\d{2}$/;

export async function run(args: RunArgs): Promise<number> {
  lintKit();
  if (!(args.timeoutScale > 0)) throw new KitInputError('--timeout-scale', 'must be a number greater than 0');
  const runtime = args.adapter ? { adapter: args.adapter } : { module: resolveRuntime(args.runtime ?? REFERENCE_RUNTIME) };
  const progress = progressLine(process.stderr);
  const results = await runConformance({
    runtime,
    tags: selection(args),
    timeoutScale: args.timeoutScale,
    validate: args.validate,
    formats: args.format,
    failFast: args.failFast,
    onScenario: (result, done, total) => progress.update(`${done}/${total} scenarios · last: ${result.status} ${result.uri}:${result.line}`),
  });
  progress.clear();
  const name = args.adapter ?? args.runtime ?? REFERENCE_RUNTIME;
  process.stdout.write(`${formatSummary(results, name)}\n`);
  if (args.results) {
    const rules = Object.fromEntries(ruleOutcomes(results));
    writeFileSync(args.results, `${JSON.stringify({ runtime: name, rules, scenarios: results }, null, 2)}\n`);
  }
  return results.some((r) => r.status === 'failed') ? ExitCode.ConformanceFailure : ExitCode.Passed;
}

/** A user's path is taken from where they stand; the built-in runtime from the kit itself. */
function resolveRuntime(runtime: string): string {
  const candidates = [resolve(runtime), kitPath(runtime)];
  const found = candidates.find((path) => existsSync(path));
  if (!found) throw new KitInputError('--runtime', `no runtime module at ${runtime}`);
  return found;
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
