import { readFileSync } from 'node:fs';
import { kitPath } from '../harness/kit-root.js';
import type { ProviderDialectName } from '../harness/protocol/protocol.js';

/**
 * How a runtime is judged, adapters/<runtime>/judge.json:
 *   {"adapter": "<command run from the kit's root>", "package": "<npm package judged>", "timeoutScale": 10,
 *    "install": "npm install", "shards": 2, "dialects": ["anthropic-messages"]}
 * `forkOf` (optional) names the runtime this one was forked from.
 * `tags` (optional) judges only the scenarios matching that Cucumber tag expression: a runtime
 * judged for some profiles alone names them, e.g. "@profile:continuation or @profile:sol".
 * `shards` (optional, 1 by default) runs that many parts of the suite in parallel and merges their
 * results; `install` is optional, `npm ci` by default: a package whose lockfile names platform binaries the
 * registry does not serve is refused by `npm ci`, and installed from the same lock by `npm install`,
 * which must leave the lock as it is.
 */
export interface JudgeSettings {
  adapter: string;
  package: string;
  timeoutScale: number;
  install?: 'npm ci' | 'npm install';
  /** Parts of the suite run in parallel, each by its own `kit run --shard k/n`; 1 by default. */
  shards?: number;
  /** The scenarios judged, as a Cucumber tag expression; all of them by default. */
  tags?: string;
  /**
   * The provider dialects the runtime is judged in (`KIT_DIALECT`, the dialect of scenarios that
   * name none), each a judgement of its own; the kit's default, openai-chat, when absent.
   */
  dialects?: ProviderDialectName[];
  /**
   * The runtime (its adapters/ folder) this one is a fork of: the field comparison puts the two side
   * by side and marks the rules on which they differ.
   */
  forkOf?: string;
}

/** The dialects a runtime is judged in, one judgement each. */
export function judgedDialects(settings: JudgeSettings): ProviderDialectName[] {
  return settings.dialects ?? ['openai-chat'];
}

/**
 * The scenarios a judgement in `dialect` runs: the judge's own selection, less, for a runtime judged
 * in several dialects, the scenarios of another of them that this one's would not run: a scenario
 * tagged for openai-responses alone is judged in the openai-responses judgement, not carried into
 * every report (a dialect tag makes a scenario run in that dialect whatever the judgement's).
 */
export function judgementTags(settings: JudgeSettings, dialect: ProviderDialectName): string | undefined {
  const others = judgedDialects(settings)
    .filter((other) => other !== dialect)
    .map((other) => `not (@dialect:${other} and not @dialect:${dialect})`);
  const parts = [...(settings.tags ? [`(${settings.tags})`] : []), ...others];
  return parts.length > 0 ? parts.join(' and ') : undefined;
}

/** The dialect a judgement's reports name (`JudgedRuntime.dialect`): only that of a runtime judged in several. */
export function namedDialect(settings: JudgeSettings, dialect: ProviderDialectName): ProviderDialectName | undefined {
  return judgedDialects(settings).length > 1 ? dialect : undefined;
}

/** The environment of a kit command run in `dialect`. */
export function dialectEnv(dialect: ProviderDialectName): NodeJS.ProcessEnv {
  return { ...process.env, KIT_DIALECT: dialect };
}

export function readJudgeSettings(runtime: string): JudgeSettings {
  return JSON.parse(readFileSync(kitPath('adapters', runtime, 'judge.json'), 'utf8')) as JudgeSettings;
}

/** A kit command (`run` by default) against the runtime's adapter, at its timeout scale; options follow. */
export function kitRun(settings: JudgeSettings, command: 'run' | 'smoke' = 'run'): string[] {
  return [
    kitPath('cli', 'bin.js'),
    command,
    '--adapter',
    settings.adapter,
    '--timeout-scale',
    String(settings.timeoutScale),
  ];
}
