import type { ArgumentsCamelCase } from 'yargs';

/**
 * A command's handler that loads its implementation only when the command runs, so `--help`
 * stays fast; the implementation's number becomes the exit code (main.ts maps thrown errors).
 */
export function lazyHandler<A>(load: () => Promise<(args: ArgumentsCamelCase<A>) => number | Promise<number>>) {
  return async (args: ArgumentsCamelCase<A>): Promise<void> => {
    const implementation = await load();
    process.exitCode = await implementation(args);
  };
}
