import { inProcessLauncher } from './in-process.js';
import type { RuntimeLauncher } from './transport.js';
import { kitPath } from '../kit-root.js';

/** The reference runtime's adapter, used when no other runtime is named. */
export const REFERENCE_RUNTIME = 'reference/adapter/conformance-adapter.ts';

/** `kit run` names the runtime module in KIT_RUNTIME; Cucumber steps read it here. */
export function launcherFromEnvironment(): Promise<RuntimeLauncher> {
  return inProcessLauncher(process.env.KIT_RUNTIME || kitPath(REFERENCE_RUNTIME));
}
