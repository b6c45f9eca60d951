import type { RuntimeDescription } from './protocol.js';
import { CAPABILITY_TABLE } from './capabilities.generated.js';

/**
 * The optional capabilities: means the kit defines for itself (its own tools, context sources,
 * clock and faults) and follow-ups the seeds leave out. A runtime declares the ones it has in its
 * `hello`; a scenario that needs one carries `@needs:<capability>` and is not applicable to a
 * runtime without it. Every other command is required of a runtime that declares a profile:
 * `unsupported` on it leaves the scenario not implemented where the action under test needs it,
 * and not judged where the scenario needs it only to set up or to look. The table is the schema's
 * (`schema/definitions/capability.schema.json`).
 */
export const OPTIONAL_CAPABILITIES = CAPABILITY_TABLE;

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

/**
 * The command every scenario starts with: a runtime that refuses it implements none of the rules,
 * wherever a scenario asks for it.
 */
export const SESSION_COMMAND = 'session.create';

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
  return (description.capabilities as readonly string[]).includes(capability);
}

/** The reason a scenario without a verdict states, the same everywhere it is reported. */
export function needsReason(capability: string): string {
  return `needs capability ${capability}`;
}
