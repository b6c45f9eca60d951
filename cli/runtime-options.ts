import { existsSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Argv } from 'yargs';
import { REFERENCE_RUNTIME, type RuntimeSelection } from '../harness/runtime-target.js';
import { KitInputError } from '../harness/input-error.js';
import { kitPath } from '../harness/kit-root.js';
import { TIMEOUT_SCALE_RANGE, textOption, timeoutScale } from './option-values.js';

export interface RuntimeArgs {
  runtime?: string;
  adapter?: string;
  timeoutScale: number;
  validate: boolean;
  /** Where the runtime was named when not by a flag (a repro bundle), for messages. */
  namedIn?: string;
}

/** The options that name the runtime under test, shared by every command that drives one. */
export function withRuntimeOptions<T>(yargs: Argv<T>) {
  return yargs
    .option(
      'runtime',
      textOption('--runtime', `Module exporting createAdapter(), driven in process [default: ${REFERENCE_RUNTIME}]`),
    )
    .option('adapter', {
      ...textOption(
        '--adapter',
        'Command that starts an adapter speaking session-runtime-adapter/1 on stdio (see docs/implementers.md)',
      ),
      conflicts: 'runtime',
    })
    .option('timeout-scale', {
      type: 'number',
      default: 1,
      requiresArg: true,
      coerce: timeoutScale,
      describe: `Multiply every per-command timeout (5 s) by this, from ${TIMEOUT_SCALE_RANGE.min} to ${TIMEOUT_SCALE_RANGE.max}`,
    })
    .option('validate', {
      type: 'boolean',
      default: true,
      describe: 'Check every protocol message against the schema (--no-validate to skip)',
    });
}

export function runtimeSelection(args: RuntimeArgs): RuntimeSelection {
  if (args.adapter) return { adapter: args.adapter };
  const runtime = args.runtime ?? REFERENCE_RUNTIME;
  // A path typed after --runtime is taken from where the user stands, never from the kit's folder
  // (a module there of the same name would be run in its place); the built-in runtime, and a
  // bundle's stored relative to the kit, from the kit itself.
  const typed = args.runtime !== undefined && args.namedIn === undefined;
  const found = typed ? resolve(runtime) : resolve(kitPath(), runtime);
  if (!existsSync(found))
    throw new KitInputError(
      args.namedIn ?? '--runtime',
      typed
        ? `no runtime module at ${runtime} (a path is taken from the working directory)`
        : `no runtime module at ${runtime}`,
    );
  if (statSync(found).isDirectory())
    throw new KitInputError(
      args.namedIn ?? '--runtime',
      `${runtime} is a directory: name the module that exports createAdapter()`,
    );
  return { module: found };
}

export function runtimeName(args: RuntimeArgs): string {
  return args.adapter ?? args.runtime ?? REFERENCE_RUNTIME;
}
