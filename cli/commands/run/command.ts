import type { Argv, CommandModule } from 'yargs';
import { lazyHandler } from '../../lazy-handler.js';
import { withRuntimeOptions, type RuntimeArgs } from '../../runtime-options.js';
import { withScenarioSelection, type SelectionArgs } from '../../scenario-selection.js';
import { textOption } from '../../option-values.js';
import { parseShard, type Shard } from '../../../harness/suite/shard.js';
import { cucumberFormats, type CucumberFormat } from './cucumber-formats.js';

export interface RunArgs extends RuntimeArgs, SelectionArgs {
  format?: CucumberFormat[];
  failFast: boolean;
  verbose: boolean;
  results?: string;
  junit?: string;
  messages?: string;
  html?: string;
  markdown?: string;
  badge?: string;
  baseline?: string;
  shard?: Shard;
  bundles?: string;
  rerun?: string;
  minVerdicts?: string;
}

export const runCommand: CommandModule<object, RunArgs> = {
  command: 'run',
  describe: 'Run the conformance scenarios against a runtime and summarise them per rule area',
  builder: (yargs: Argv) =>
    withScenarioSelection(withRuntimeOptions(yargs))
      .option('shard', {
        type: 'string',
        requiresArg: true,
        coerce: parseShard,
        describe: 'Run part k of n of the selected scenarios, split by stable ID (e.g. 2/3), for parallel CI jobs',
      })
      .option(
        'baseline',
        textOption(
          '--baseline',
          'YAML file of known failures: they do not fail the run, but one that passes does (see kit baseline)',
        ),
      )
      .option(
        'junit',
        textOption(
          '--junit',
          "Write a JUnit XML report of each scenario's outcome (outcomes as run: the baseline does not apply) to this file",
        ),
      )
      .option('messages', textOption('--messages', 'Write the Cucumber messages (NDJSON) to this file'))
      .option(
        'html',
        textOption(
          '--html',
          "Write an HTML page of the run to this file: each rule's and scenario's outcome as the baseline stands it, with the evidence of each failure (Cucumber's own: --format html:FILE)",
        ),
      )
      .option('markdown', textOption('--markdown', 'Write a markdown summary for a CI job summary to this file'))
      .option('badge', textOption('--badge', 'Write a shields.io endpoint badge (JSON) to this file'))
      .option(
        'results',
        textOption('--results', 'Write every scenario result, rule outcome and baseline verdict as JSON to this file'),
      )
      .option(
        'bundles',
        textOption(
          '--bundles',
          'Write a repro bundle per failing scenario below this directory (kit replay <bundle> reruns it)',
        ),
      )
      .option('format', {
        type: 'string',
        array: true,
        coerce: cucumberFormats,
        describe: 'Any other Cucumber format, e.g. json:reports/cucumber.json',
      })
      .option(
        'rerun',
        textOption(
          '--rerun',
          'Run only the scenarios that failed in this results file (written by --results), within the other selection',
        ),
      )
      .option(
        'min-verdicts',
        textOption(
          '--min-verdicts',
          'Fail the run unless at least this share of the selected rules gets a verdict, as a percentage (90%) or a fraction (0.9); a run where none gets one always fails',
        ),
      )
      .option('fail-fast', { type: 'boolean', default: false, describe: 'Stop at the first failing scenario' })
      .option('verbose', {
        type: 'boolean',
        default: false,
        describe: 'List the failures the baseline expects too, each with its reason (otherwise counted)',
      })
      .example('$0 run', 'Run every scenario against the reference runtime')
      .example('$0 run --adapter "python3 my_adapter.py"', 'Run every scenario against an adapter in another process')
      .example('$0 run --rule INB-07 RUN-04', 'Run the scenarios of two rules')
      .example("$0 run --tags '@area:runner'", 'Run one rule area')
      .example('$0 run --rerun reports/results.json', 'Run again only what failed last time')
      .example(
        '$0 run --baseline known-failures.yaml --bundles reports/bundles',
        'Accept known failures; keep a repro bundle of any other',
      )
      .example(
        '$0 run --adapter "python3 my_adapter.py" --min-verdicts 90%',
        'Fail unless 90% of the rules get a verdict',
      )
      .example(
        '$0 run --shard 2/4 --junit reports/junit-2.xml --markdown "$GITHUB_STEP_SUMMARY"',
        'One of four parallel CI jobs',
      ) as unknown as Argv<RunArgs>,
  handler: lazyHandler(async () => (await import('./run.js')).run),
};
