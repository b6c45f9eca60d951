import type { Argv } from 'yargs';

export interface JsonOutputArgs {
  json: boolean;
}

/** `--json`: results on stdout for machines instead of text for people. */
export function withJsonOutput<T>(yargs: Argv<T>) {
  return yargs.option('json', { type: 'boolean', default: false, describe: 'Print the result as JSON for machines' });
}
