import type { Profile } from '../profile.js';
import { CAPABILITY_TABLE } from './capabilities.generated.js';

/**
 * The optional capabilities and the commands each one needs (the table is generated from the
 * protocol's schema). REFERENCE_MEANS=neutral declares none of them and refuses their commands, so
 * the reference is judged as a black-box runtime is: through its own shell tool, instruction
 * files, restarts and the time zone only. Restarts and process reuse need no command; prompts
 * that bypass the inbox exist only in the profiles that offer them.
 */
function optionalCapabilities(profile: Profile): Record<string, readonly string[]> {
  const withoutCommand = new Set(['restart', 'process-reuse']);
  const offered = Object.entries(CAPABILITY_TABLE).filter(
    ([name]) => !withoutCommand.has(name) && (name !== 'busy-submit' || profile.offersInboxFreePrompts()),
  );
  return Object.fromEntries(offered.map(([name, { commands }]) => [name, commands]));
}

/** What the adapter offers the kit: the capabilities it declares, and the commands it refuses. */
export interface Offer {
  /** Only the runtime's own means: no kit tools, kit sources or other optional capability. */
  neutral: boolean;
  capabilities: string[];
  refused: Set<string>;
}

export function offer(profile: Profile, neutral: boolean): Offer {
  const optional = optionalCapabilities(profile);
  return {
    neutral,
    capabilities: ['restart', ...(neutral ? [] : Object.keys(optional))],
    refused: new Set(neutral ? Object.values(optional).flat() : []),
  };
}
