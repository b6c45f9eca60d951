import { loadConfiguration, loadSources, runCucumber, type ISupportCodeLibrary } from '@cucumber/cucumber/api';
import { readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { Writable } from 'node:stream';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { cachedBundle } from '../build/module-bundle.js';
import { KIT_ROOT, kitPath } from '../kit-root.js';
import { ScenarioResultCollector, type ScenarioResult } from '../report/scenario-results.js';
import { KitInputError } from '../input-error.js';
import { settleRun } from './run-settled.js';
import { readScenarios, selectedBy, stableIds } from './suite-index.js';
import type { Shard } from './shard.js';
import { settingsToEnvironment, type SuiteSettings } from './suite-settings.js';

export interface ConformanceRunOptions extends SuiteSettings {
  /** A Cucumber tag expression selecting scenarios. */
  tags?: string;
  /** The options that chose `tags`, as the user typed them, for the error when nothing matches. */
  selectedBy?: string;
  /** Run only the scenarios, outlines or example rows with these stable IDs (scenario-id.ts). */
  ids?: string[];
  /** Run only this part of the selected scenarios. */
  shard?: Shard;
  /** Extra Cucumber formats, such as `junit:reports/junit.xml`. */
  formats: string[];
  failFast: boolean;
  onScenario?: (result: ScenarioResult, done: number, total: number) => void;
  /**
   * Once this holds of the results so far, the scenarios still to come are set aside as not
   * applicable without being run: for a caller that needs some outcomes only (the self-check
   * needs one failed assertion per rule).
   */
  settledWhen?: (results: ScenarioResult[]) => boolean;
  /** Write no Cucumber output, for a caller that reads only the results. */
  quiet?: boolean;
  /**
   * Cucumber's own step-by-step account of each failing scenario, with stack traces, before the
   * kit's summary (`--debug`). Otherwise only the kit's summary tells the outcomes, in its words.
   */
  stepDetail?: boolean;
}

/**
 * The steps and hooks, loaded by the process's first run. ESM modules load once per process, so a
 * later run in the same process (the self-check runs many) must be handed the loaded library.
 */
let support: ISupportCodeLibrary | undefined;

const nowhere = () => new Writable({ write: (_chunk, _encoding, done) => done() });

/**
 * Runs the conformance features against one runtime and returns one result per scenario. A
 * selection that matches nothing is an input error; an empty shard of a selection is not.
 */
export async function runConformance(options: ConformanceRunOptions): Promise<ScenarioResult[]> {
  const base = (await import(pathToFileURL(kitPath('cucumber.js')).href)).default;
  const code = await supportCode(base.import);
  // Cucumber's support code reads its settings from the environment it shares with this process.
  Object.assign(process.env, settingsToEnvironment(options));
  // Cucumber does not read NO_COLOR but FORCE_COLOR, from this process's environment, at each
  // format: NO_COLOR wins here.
  if (process.env.NO_COLOR) process.env.FORCE_COLOR = '0';
  // Cucumber prints progress to stdout unless a format claims it; the kit's summary speaks instead.
  const toStdout = options.stepDetail || options.formats.some((format) => !format.includes(':'));
  const environment = {
    cwd: KIT_ROOT,
    ...(options.quiet ? { stdout: nowhere(), stderr: nowhere() } : toStdout ? {} : { stdout: nowhere() }),
  };
  const { runConfiguration } = await loadConfiguration(
    {
      file: false,
      provided: {
        ...base,
        import: code.import,
        format: [...(options.stepDetail ? ['summary'] : []), ...options.formats],
        failFast: options.failFast,
        ...(options.tags ? { tags: options.tags } : {}),
        paths: featurePaths(options, base.paths),
        plugin: [code.plugin],
        pluginOptions: {
          kitSelection: {
            ...(options.shard ? { shard: { ...options.shard } } : {}),
            ...(options.ids ? { ids: [...options.ids] } : {}),
          },
        },
      },
    },
    environment,
  );
  const { plan } = await loadSources(runConfiguration.sources, environment);
  if (plan.length === 0)
    throw new KitInputError(options.selectedBy ?? '--tags', `no scenario matches ${options.tags ?? 'the suite'}`);
  let done = 0;
  const collector = new ScenarioResultCollector((result) => {
    options.onScenario?.(result, ++done, collector.total);
    if (options.settledWhen?.(collector.results())) settleRun(true);
  });
  settleRun(false);
  try {
    const run = await runCucumber(
      { ...runConfiguration, support: support ?? runConfiguration.support },
      environment,
      (envelope) => collector.accept(envelope),
    );
    support = run.support;
  } finally {
    settleRun(false);
  }
  return collector.results();
}

/**
 * The feature files holding a selected scenario, or `all` when the selection is the suite or
 * matches nothing (Cucumber then says so). Cucumber parses every file it is given, twice a run:
 * for a run of a few scenarios (the self-check makes hundreds) that costs more than the scenarios.
 */
function featurePaths({ tags, ids }: Pick<ConformanceRunOptions, 'tags' | 'ids'>, all: string[]): string[] {
  if (!tags && !ids) return all;
  const wanted = ids && new Set(ids);
  const files = readScenarios(kitPath('features'))
    .filter((scenario) => !tags || selectedBy(tags, scenario))
    .filter((scenario) => !wanted || stableIds(scenario).some((id) => wanted.has(id)))
    .map((scenario) => resolve(scenario.file));
  return files.length > 0 ? [...new Set(files)] : all;
}

/**
 * The steps and the selection plugin as bundles, where they can be cached: loading them through tsx costs
 * more than a short run's scenarios. The bundle's inline source maps keep step definitions' locations
 * in Cucumber's reports at the TypeScript sources. Otherwise the configuration's own list, through tsx.
 */
async function supportCode(configured: string[]): Promise<{ import: string[]; plugin: string }> {
  const selectionPlugin = kitPath('harness', 'suite', 'selection-plugin.ts');
  const [steps, plugin] = await Promise.all([
    cachedBundle({
      name: 'steps',
      entry: typeScriptFiles(kitPath('steps')),
      roots: [kitPath('steps'), kitPath('harness')],
      sourceMaps: true,
    }),
    cachedBundle({ name: 'selection-plugin', entry: selectionPlugin, roots: [kitPath('harness', 'suite')] }),
  ]);
  if (!steps || !plugin) return { import: configured, plugin: pathToFileURL(selectionPlugin).href };
  process.setSourceMapsEnabled(true);
  return { import: [fileURLToPath(steps)], plugin };
}

/** The `.ts` files under `directory`, in the order Cucumber's `steps/**\/*.ts` would import them. */
function typeScriptFiles(directory: string): string[] {
  return readdirSync(directory, { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.ts'))
    .map((file) => join(directory, file))
    .sort();
}
