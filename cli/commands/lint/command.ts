import type { CommandModule } from 'yargs';

export const lintCommand: CommandModule = {
  command: 'lint',
  describe: 'Check that every indexed rule has a scenario and every scenario names indexed rules and one stable ID',
  handler: async () => {
    const { lintKit } = await import('./lint.js');
    const scenarios = lintKit();
    process.stdout.write(`suite ok: ${scenarios.length} scenarios, every indexed rule covered\n`);
  },
};
