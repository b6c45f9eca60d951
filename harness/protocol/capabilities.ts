import type { RuntimeDescription } from './protocol.js';

/**
 * The optional capabilities: means the kit defines for itself (its own tools, context sources,
 * clock and faults) and follow-ups the seeds leave out. A runtime declares the ones it has in its
 * `hello`; a scenario that needs one carries `@needs:<capability>` and is not applicable to a
 * runtime without it. Every other command is required of a runtime that declares a profile:
 * `unsupported` on it fails the scenario as not implemented.
 */
export const OPTIONAL_CAPABILITIES = {
  'kit-tools': { commands: ['gate.wait', 'gate.open'], tools: ['echo', 'fail', 'gate', 'produce'] },
  'kit-sources': {
    commands: ['context.contributor.register', 'context.contributor.remove', 'context.source.set'],
    tools: [],
  },
  /** A location's tools contributed under a key by the kit, and closed again. */
  'tool-contributions': { commands: ['tool.contribution.register', 'tool.contribution.close'], tools: [] },
  'virtual-clock': { commands: ['clock.set', 'retry.wait'], tools: [] },
  'fault-injection': {
    commands: ['fault.system-message-writes', 'fault.tool-output-writes', 'tool-output.held', 'fault.crash'],
    tools: [],
  },
  pty: { commands: ['pty.overlay.set', 'pty.environment'], tools: [] },
  /** Variables of the runtime's host environment set before it reads them (TZ, a feature switch). */
  'host-env': { commands: ['host.env.set'], tools: [] },
  'manual-compaction': { commands: ['compaction.request'], tools: [] },
  reconcile: { commands: ['context.reconcile'], tools: [] },
  'busy-submit': { commands: ['prompt.submit'], tools: [] },
  /** The history read a page at a time, newest first. */
  'history-paging': { commands: ['history.page'], tools: [] },
  /** The kit kills the runtime's process and starts another over the same store. */
  restart: { commands: [], tools: [] },
  /**
   * One process serves several scenarios, one after another: the kit ends a runtime not armed
   * to crash with `runtime.close` and greets the same process with the next scenario's
   * `hello`. No scenario needs it, and no mode refuses it, so its command is not listed here.
   */
  'process-reuse': { commands: [], tools: [] },
} as const satisfies Record<string, { commands: readonly string[]; tools: readonly string[] }>;

export type Capability = keyof typeof OPTIONAL_CAPABILITIES;

export const PROCESS_REUSE: Capability = 'process-reuse';

export const CAPABILITIES = Object.keys(OPTIONAL_CAPABILITIES) as Capability[];

const NEEDS_TAG = /^@needs:(.+)$/;

const ofCommand = new Map<string, Capability>(
  CAPABILITIES.flatMap((capability) =>
    OPTIONAL_CAPABILITIES[capability].commands.map((cmd): [string, Capability] => [cmd, capability]),
  ),
);
const ofTool = new Map<string, Capability>(
  CAPABILITIES.flatMap((capability) =>
    OPTIONAL_CAPABILITIES[capability].tools.map((tool): [string, Capability] => [tool, capability]),
  ),
);

/** The optional capability a command belongs to; undefined for a required command. */
export function capabilityOfCommand(cmd: string): Capability | undefined {
  return ofCommand.get(cmd);
}

/** The optional capability a tool the kit scripts belongs to; undefined for the runtime's own tools. */
export function capabilityOfTool(name: string): Capability | undefined {
  return ofTool.get(name);
}

export function isCapability(name: string): name is Capability {
  return Object.hasOwn(OPTIONAL_CAPABILITIES, name);
}

/** The capabilities a scenario's `@needs:` tags name, known or not (lint reports unknown ones). */
export function neededCapabilities(tags: readonly string[]): string[] {
  return tags.flatMap((tag) => NEEDS_TAG.exec(tag)?.[1] ?? []);
}

/** Whether a runtime's handshake declares a capability. */
export function declares(description: Pick<RuntimeDescription, 'capabilities'>, capability: string): boolean {
  return description.capabilities.includes(capability);
}

/** The reason a scenario without a verdict states, the same everywhere it is reported. */
export function needsReason(capability: string): string {
  return `needs capability ${capability}`;
}

/** The failure message of a required command answered with `unsupported`. */
export const NOT_IMPLEMENTED = 'not implemented: ';

/** Whether a scenario's failure message (which may start with the error's name) is a not implemented one. */
export function isNotImplemented(message: string | undefined): boolean {
  return /^(?:\w+: )?not implemented: /.test(message ?? '');
}
