import { AdapterFailed } from './stdio.js';
import { RuntimeTimeout } from './runtime-driver.js';
import { ProtocolViolation } from '../protocol/validation.js';

/**
 * The runtime under test could not be driven: its adapter broke the protocol, died, could not
 * start or did not answer in time. That says nothing yet about conformance, so runs report it
 * apart from failed rules, with its own exit code.
 */
export class RuntimeNotDriven extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'RuntimeNotDriven';
  }
}

/**
 * A runtime that runs in its adapter's process (`runtime.inAdapterProcess`) ended that process
 * while the action under test ran: the runtime failed the action, as it would fail its user.
 */
export class RuntimeEnded extends Error {
  constructor(message: string) {
    super(`the runtime ended its process during the action (it runs in the adapter's): ${message}`);
    this.name = 'RuntimeEnded';
  }
}

/** `error` as a RuntimeEnded when the adapter the runtime runs in exited unasked during an action. */
export function asRuntimeEnded(error: unknown, inAdapterProcess: boolean, action: boolean): RuntimeEnded | undefined {
  return error instanceof AdapterFailed && error.exitedUnasked && inAdapterProcess && action
    ? new RuntimeEnded(error.message)
    : undefined;
}

/** `error` as a RuntimeNotDriven when it is one of the ways a runtime cannot be driven. */
export function asNotDriven(error: unknown): RuntimeNotDriven | undefined {
  if (error instanceof RuntimeNotDriven) return error;
  const driving =
    error instanceof AdapterFailed ||
    error instanceof RuntimeTimeout ||
    (error instanceof ProtocolViolation && error.side === 'adapter');
  if (!driving) return undefined;
  const fault = new RuntimeNotDriven(error.message);
  // Where it happened is where the original was thrown.
  const header = `${error.name}: ${error.message}`;
  if (error.stack?.startsWith(header))
    fault.stack = `${fault.name}: ${error.message}${error.stack.slice(header.length)}`;
  return fault;
}
