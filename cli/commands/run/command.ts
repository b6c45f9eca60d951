import type { Argv, CommandModule } from 'yargs';
import { withRuntimeOptions, type RuntimeArgs } from '../../runtime-options.js';

export interface RunArgs extends RuntimeArgs {
  validate: boolean;
  tags?: string;
  rule?: string[];
  format: string[];
  failFast: boolean;
  results?: string;
}

export const runCommand: CommandModule<object, RunArgs> = {
  command: 'run',
  describe: 'Run the conformance scenarios against a runtime and summarise them per rule area',
  builder: (yargs: Argv) =>
    withRuntimeOptions(yargs)
      .option('validate', { type: 'boolean', default: true, describe: 'Check every protocol message against the schema (--no-validate to skip)' })
      .option('tags', { type: 'string', describe: "Cucumber tag expression, e.g. '@area:inbox and not @RUN-07'" })
      .option('rule', { type: 'string', array: true, describe: 'Only the scenarios of these rule IDs, e.g. INB-07' })
      .option('format', {
        type: 'string',
        array: true,
        default: [],
        describe: 'Extra Cucumber report, e.g. junit:reports/junit.xml or message:reports/messages.ndjson',
      })
      .option('results', { type: 'string', describe: 'Write every scenario result and rule outcome as JSON to this file' })
      .option('fail-fast', { type: 'boolean', default: false, describe: 'Stop at the first failing scenario' })
      .example('$0 run', 'Run every scenario against the reference runtime')
      .example('$0 run --adapter "python3 my_adapter.py"', 'Run every scenario against an adapter in another process')
      .example('$0 run --rule INB-07 RUN-04', 'Run the scenarios of two rules')
      .example("$0 run --tags '@area:runner'", 'Run one rule area') as unknown as Argv<RunArgs>,
  handler: async (args) => {
    const { run } = await import('./run.js');
    process.exitCode = await run(args);
  },
};
