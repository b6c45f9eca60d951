import { Profile } from '../profile.js';
import { CrashPoints } from './crash-points.js';
import { dispatch, failure, type Command, type Reply } from './command.js';
import { offer } from './capabilities.js';
import { helloResult, PROTOCOL } from './handshake.js';
import { composeRuntime, type AdapterConfig } from './runtime-host.js';
import { sessionCommands } from './commands/session-commands.js';
import { contextCommands } from './commands/context-commands.js';
import { toolCommands } from './commands/tool-commands.js';
import { agentCommands } from './commands/agent-commands.js';
import { compactionCommands } from './commands/compaction-commands.js';
import { toolOutputCommands } from './commands/tool-output-commands.js';
import { hostCommands } from './commands/host-commands.js';
import { ObservationCommands } from './commands/observation-commands.js';

export type { AdapterConfig } from './runtime-host.js';

/**
 * Serves the conformance kit's driver commands (plain JSON in, plain JSON out) over a reference
 * runtime. Only this module and its commands know the kit's command names; the runtime does not.
 */

export interface Adapter {
  handle(command: Command): Promise<Reply>;
  terminate(): void;
}

/**
 * The reference implements each profile by configuration: REFERENCE_PROFILE=checkpoint selects the
 * earlier Context Checkpoint design, REFERENCE_PROFILE=sol adds the pruning, token usage, retry and
 * doom-loop behaviour of the Go session package to the core design, REFERENCE_PROFILE=continuation
 * injects a continuation message after each compaction; the default is the core design alone.
 * REFERENCE_MEANS=neutral offers the runtime's own means only (see capabilities.ts).
 */
const profile = Profile.parse(process.env.REFERENCE_PROFILE);
const offered = offer(profile, process.env.REFERENCE_MEANS === 'neutral');

/**
 * One adapter per runtime process: `hello` opens the runtime, every other command drives it.
 * Diagnostics are echoed to stderr by an adapter process, whose host keeps them for its reports;
 * inside the kit's own process they would only clutter a run's output, so there only with --debug.
 * `crash` ends the process at once; an adapter without it (in the kit's process) cannot crash.
 */
export function createAdapter(options: { echoDiagnostics?: boolean; crash?: () => void } = {}): Adapter {
  const echo = options.echoDiagnostics ?? process.env.KIT_DEBUG === '1';
  let served: Adapter | undefined;
  return {
    async handle(command) {
      if (command.cmd === 'hello') {
        if (command.protocol !== PROTOCOL) return failure('unsupported', `this adapter speaks ${PROTOCOL} only`);
        served ??= serve(command.config as AdapterConfig, echo, options.crash && new CrashPoints(options.crash));
        return { ok: true, result: helloResult(profile, offered.capabilities) };
      }
      return served ? served.handle(command) : failure('invalid-input', 'the first command must be hello');
    },
    terminate: () => served?.terminate(),
  };
}

function serve(config: AdapterConfig, echoDiagnostics: boolean, crashes: CrashPoints | undefined): Adapter {
  const host = composeRuntime(config, profile, offered.neutral, echoDiagnostics, crashes);
  const observation = new ObservationCommands(host.runtime);
  const commands = {
    ...sessionCommands(host),
    ...contextCommands(host),
    ...toolCommands(host),
    ...agentCommands(host),
    ...compactionCommands(host),
    ...toolOutputCommands(host),
    ...hostCommands(host),
    ...observation.table(),
  };
  return {
    handle: (command) => dispatch(commands, offered.refused, command),
    terminate() {
      observation.stop();
      host.faults.close();
      host.runtime.terminate();
    },
  };
}
