import { join } from 'node:path';
import { SessionRuntime } from '../runtime.js';
import type { ProviderConfig } from '../provider/provider-turn-stream.js';
import type { IdSource } from '../ids.js';
import type { Profile } from '../profile.js';
import { GateBoard, kitTools } from './kit-tools.js';
import { KitSources } from './kit-sources.js';
import { WriteFaults } from './write-faults.js';
import { ToolOutputFaults } from './tool-output-faults.js';
import { InstructionFaults } from './instruction-faults.js';
import { KitPtyOverlay } from './kit-pty-overlay.js';
import type { CrashPoints } from './crash-points.js';
import { VirtualClock } from './virtual-clock.js';

export interface AdapterConfig {
  /** A directory the runtime owns; the same directory after a restart holds the same state. */
  storeDir: string;
  provider: ProviderConfig;
  /** The virtual time at start, ISO 8601. */
  now: string;
  /** Distinguishes the processes started over one store, so generated IDs never repeat. */
  instance: number;
  /** The user's global configuration directory. */
  home: string;
  /** The IANA time zone of the host-local date; UTC when absent. */
  timeZone?: string;
}

/** The runtime one adapter serves, with the kit's means around it that the commands drive. */
export interface RuntimeHost {
  runtime: SessionRuntime;
  profile: Profile;
  clock: VirtualClock;
  gates: GateBoard;
  /** The host environment the runtime reads (TZ, ...), as the kit sets it. */
  hostEnv: Record<string, string | undefined>;
  kitSources: KitSources;
  faults: WriteFaults;
  toolOutputFaults: ToolOutputFaults;
  instructionFaults: InstructionFaults;
  ptyOverlay: KitPtyOverlay;
  /** Every operator diagnostic of this process, in order. */
  diagnostics: string[];
  /** Absent in the kit's process, which a crash would take down. */
  crashes: CrashPoints | undefined;
}

/**
 * The composition root: the runtime over the store directory, on a virtual clock, with the kit's
 * tools unless only the runtime's own means are offered (`neutral`).
 */
export function composeRuntime(
  config: AdapterConfig,
  profile: Profile,
  neutral: boolean,
  echoDiagnostics: boolean,
  crashes: CrashPoints | undefined,
): RuntimeHost {
  const clock = new VirtualClock(new Date(config.now));
  const gates = new GateBoard();
  const hostEnv: Record<string, string | undefined> = { TZ: config.timeZone };
  const databaseFile = join(config.storeDir, 'runtime.sqlite');
  const toolOutputFaults = new ToolOutputFaults(join(config.storeDir, 'tool-output'));
  const diagnostics: string[] = [];
  const instructionFaults = new InstructionFaults();
  const runtime = new SessionRuntime({
    toolOutput: {
      directory: join(config.storeDir, 'tool-output'),
      onFileWritten: () => {
        crashes?.toolOutputWritten();
        return toolOutputFaults.afterWrite();
      },
    },
    diagnostics: (message) => {
      diagnostics.push(message);
      if (echoDiagnostics) process.stderr.write(`${message}\n`);
    },
    databaseFile,
    provider: config.provider,
    tools: neutral ? [] : kitTools(gates),
    clock,
    profile,
    ids: sequentialIds(config.instance),
    globalConfigDir: config.home,
    hostEnv: () => hostEnv,
    beforeInstructionRead: instructionFaults.beforeRead,
  });
  return {
    runtime,
    profile,
    clock,
    gates,
    hostEnv,
    kitSources: new KitSources(gates),
    faults: new WriteFaults(databaseFile),
    toolOutputFaults,
    instructionFaults,
    ptyOverlay: new KitPtyOverlay(),
    diagnostics,
    crashes,
  };
}

function sequentialIds(instance: number): IdSource {
  let counter = 0;
  return { next: (prefix) => `${prefix}_${instance}_${String(++counter).padStart(4, '0')}` };
}
