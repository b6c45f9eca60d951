import type { CommandModule } from 'yargs';
import { lazyHandler } from '../../lazy-handler.js';

export const cleanCommand: CommandModule = {
  command: 'clean',
  describe:
    "Remove the kit-run-* directories your finished runs kept for failed scenarios (those listing them in kept.txt) below KIT_TMPDIR, else /dev/shm or the temporary directory; runs still going and other users' runs are left alone",
  handler: lazyHandler(async () => (await import('./clean.js')).clean),
};
