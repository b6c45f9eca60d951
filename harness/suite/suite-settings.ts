import { accessSync, constants, statfsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import type { ProviderDialectName } from '../protocol/protocol.js';
import { kitPath } from '../kit-root.js';
import { KitInputError } from '../input-error.js';
import { dialects } from '../provider/wire/dialect.js';
import { REFERENCE_RUNTIME, type RuntimeSelection } from '../runtime-target.js';

/**
 * What a conformance run hands to Cucumber's support code. They share only the process's
 * environment, so `kit run` writes these settings there and the steps read them back, both here.
 */
export interface SuiteSettings {
  runtime: RuntimeSelection;
  /** Multiplies every per-command timeout, for slow machines or slow runtimes. */
  timeoutScale: number;
  /** Check every protocol message against the schema. */
  validate: boolean;
  /** Write a repro bundle for each failing scenario below this directory. */
  bundles?: string;
}

/** The settings a person sets in the environment, not `kit run`. */
export interface HostSettings {
  /** Where scenario directories go (`KIT_TMPDIR`; by default a roomy tmpfs, else the system's temporary directory). */
  scenarioRoot: string;
  /** The provider dialect of scenarios that name none (`KIT_DIALECT`). */
  dialect: ProviderDialectName;
}

export function settingsToEnvironment(settings: SuiteSettings): Record<string, string> {
  const { runtime } = settings;
  return {
    KIT_RUNTIME: 'module' in runtime ? runtime.module : '',
    KIT_ADAPTER: 'adapter' in runtime ? runtime.adapter : '',
    KIT_TIMEOUT_SCALE: String(settings.timeoutScale),
    KIT_VALIDATE: settings.validate ? '1' : '0',
    KIT_BUNDLES: settings.bundles ?? '',
  };
}

/** The settings of this process's run; a plain `cucumber-js` run gets the reference runtime and the defaults. */
export function suiteSettings(env: NodeJS.ProcessEnv = process.env): SuiteSettings & HostSettings {
  return {
    runtime: env.KIT_ADAPTER ? { adapter: env.KIT_ADAPTER } : { module: env.KIT_RUNTIME || kitPath(REFERENCE_RUNTIME) },
    timeoutScale: Number(env.KIT_TIMEOUT_SCALE || 1),
    validate: env.KIT_VALIDATE !== '0',
    ...(env.KIT_BUNDLES ? { bundles: env.KIT_BUNDLES } : {}),
    scenarioRoot: env.KIT_TMPDIR || defaultScenarioRoot(),
    dialect: hostDialect(env.KIT_DIALECT),
  };
}

/** `KIT_DIALECT` when it names one of the kit's dialects; a run would otherwise fail every scenario on it. */
function hostDialect(name: string | undefined): ProviderDialectName {
  if (name === undefined) return 'openai-chat';
  if (name in dialects) return name as ProviderDialectName;
  throw new KitInputError(
    'KIT_DIALECT',
    `"${name}" names no provider dialect of the kit (${Object.keys(dialects).join(', ')}); leave it unset for openai-chat`,
  );
}

/** The shared-memory file system most Linux machines have; containers often make it small. */
const SHARED_MEMORY = '/dev/shm';
const ROOMY_BYTES = 2 ** 30;

/**
 * A scenario creates a SQLite store and deletes it again: on a disk-backed file system, creating,
 * syncing and removing its files costs more CPU than much of the scenario. A writable tmpfs with a
 * gibibyte free takes them instead; elsewhere the system's temporary directory does.
 */
function defaultScenarioRoot(): string {
  try {
    accessSync(SHARED_MEMORY, constants.W_OK);
    const { bavail, bsize } = statfsSync(SHARED_MEMORY);
    if (bavail * bsize >= ROOMY_BYTES) return SHARED_MEMORY;
  } catch {
    // No such file system here.
  }
  return tmpdir();
}
