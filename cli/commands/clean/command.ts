import type { CommandModule } from 'yargs';
import { lazyHandler } from '../../lazy-handler.js';

export const cleanCommand: CommandModule = {
  command: 'clean',
  describe:
    'Remove the directories failed runs kept (below KIT_TMPDIR, else /dev/shm or the temporary directory); runs still going are left alone',
  handler: lazyHandler(async () => (await import('./clean.js')).clean),
};
