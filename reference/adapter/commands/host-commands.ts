import { ptyEnvironment, standaloneOverlay, type Environment } from '../../pty/pty-environment.js';
import type { CrashPoint } from '../crash-points.js';
import { opt, type CommandTable } from '../command.js';
import type { RuntimeHost } from '../runtime-host.js';

/** What the host around the runtime controls: time, environment, PTYs, gates, faults, crashes. */
export function hostCommands(host: RuntimeHost): CommandTable {
  const { runtime, clock, gates, hostEnv, faults, instructionFaults, ptyOverlay, crashes } = host;
  return {
    'clock.set': async (c) => {
      clock.set(new Date(String(c.now)));
      // The runtime's periodic retention sweep; with a virtual clock, time passes only here.
      await runtime.sweepToolOutput();
    },
    'host.env.set': (c) => {
      hostEnv[String(c.name)] = c.value === null ? undefined : String(c.value);
    },
    'pty.overlay.set': (c) => ptyOverlay.set(String(c.location), c.env as Environment),
    'pty.environment': (c) =>
      ptyEnvironment(
        { location: String(c.location), cwd: opt(c.cwd), env: c.env as Environment },
        c.server === 'standalone' ? standaloneOverlay : ptyOverlay,
      ),
    'gate.wait': (c) => gates.blocked(String(c.name)),
    'gate.open': (c) => gates.open(String(c.name)),
    diagnostics: () => ({ diagnostics: host.diagnostics }),
    'fault.system-message-writes': (c) => faults.failSystemMessages(Boolean(c.failing)),
    'fault.instruction-file-reads': (c) => instructionFaults.vanishAtNextRead(String(c.path)),
    // Without crash points (a runtime in the kit's process), `fault.crash` is unsupported.
    ...(crashes ? { 'fault.crash': (c) => crashes.arm(runtime, String(c.sessionId), c.after as CrashPoint) } : {}),
  };
}
