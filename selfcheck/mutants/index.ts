import type { Mutant } from './mutant.js';
import { agents } from './agents.js';
import { checkpoint } from './checkpoint.js';
import { compaction } from './compaction.js';
import { context } from './context.js';
import { crashes } from './crashes.js';
import { continuation } from './continuation.js';
import { epochs } from './epochs.js';
import { inbox } from './inbox.js';
import { instructions } from './instructions.js';
import { pruning } from './pruning.js';
import { retry } from './retry.js';
import { runner } from './runner.js';
import { scp } from './scp.js';
import { systemMessages } from './system-messages.js';
import { toolOutput } from './tool-output.js';
import { tools } from './tools.js';

export { mutantKinds, rulesBroken, type Edit, type Mutant, type MutantKind } from './mutant.js';

/** The mutant catalogue by rule area, in the order of the rule catalogue. */
export const mutantsByArea: Record<string, Mutant[]> = {
  context,
  epochs,
  'system-messages': systemMessages,
  instructions,
  agents,
  inbox,
  runner,
  'tool-output': toolOutput,
  compaction,
  continuation,
  pruning,
  retry,
  scp,
  checkpoint,
  tools,
  crashes,
};

export const mutants: Mutant[] = Object.values(mutantsByArea).flat();
