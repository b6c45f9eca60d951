import { existsSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { resolve } from 'node:path';
import { KitInputError } from '../../../harness/input-error.js';
import { nonEmptyList } from '../../option-values.js';
import type { OutputPath } from '../../output-file.js';

const require = createRequire(import.meta.url);

/** A Cucumber format: its name (or a formatter module's path) and the file it writes, if any. */
export interface CucumberFormat {
  type: string;
  output?: OutputPath;
}

/**
 * `--format`: each value names a built-in formatter or an existing formatter module, with an
 * optional output path. Checked before anything runs, where Cucumber would fail only at the end.
 */
export function cucumberFormats(values: string[]): CucumberFormat[] {
  // Loaded here, not with the command, so that `kit --help` stays fast.
  const builtinFormats = Object.keys(require('@cucumber/cucumber/lib/formatter/builtin/index').default as object);
  const { splitFormatDescriptor } = require('@cucumber/cucumber/lib/configuration/split_format_descriptor') as {
    splitFormatDescriptor(logger: { warn(text: string): void }, option: string): [string, string];
  };
  return nonEmptyList('--format')(values).map((value) => {
    const [type, path] = splitFormatDescriptor({ warn() {} }, value);
    if (type.trim() === '') throw new KitInputError('--format', `"${value}" names no format before the colon`);
    // A directory (the working directory, for an empty name) is no formatter module.
    if (!builtinFormats.includes(type) && !isFile(resolve(type)) && !resolvable(type)) {
      throw new KitInputError(
        '--format',
        `"${type}" is neither a Cucumber format (${builtinFormats.join(', ')}) nor a formatter module`,
      );
    }
    if (value !== type && path.trim() === '')
      throw new KitInputError('--format', `"${value}" names no file after the colon`);
    return {
      type: isFile(resolve(type)) ? resolve(type) : type,
      ...(path ? { output: { flag: '--format', path } } : {}),
    };
  });
}

const isFile = (path: string) => existsSync(path) && statSync(path).isFile();

function resolvable(module: string): boolean {
  try {
    require.resolve(module, { paths: [process.cwd()] });
    return true;
  } catch {
    return false;
  }
}

/** Cucumber resolves paths from the kit's root; the user's are taken from where they stand. */
export function formatDescriptor({ type, output }: CucumberFormat): string {
  return output ? `${JSON.stringify(type)}:${JSON.stringify(resolve(output.path))}` : type;
}
