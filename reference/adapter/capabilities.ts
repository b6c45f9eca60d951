import type { Profile } from '../profile.js';

/**
 * The optional capabilities and the commands each one needs. REFERENCE_MEANS=neutral declares
 * none of them and refuses their commands, so the reference is judged as a black-box runtime is:
 * through its own shell tool, instruction files, restarts and the time zone only. (The reference
 * imports nothing from the kit, so this mirrors the kit's table in harness/protocol/capabilities.ts.)
 */
function optionalCapabilities(profile: Profile): Record<string, string[]> {
  return {
    'kit-tools': ['gate.wait', 'gate.open'],
    'kit-sources': ['context.contributor.register', 'context.contributor.remove', 'context.source.set'],
    'tool-contributions': ['tool.contribution.register', 'tool.contribution.close'],
    'virtual-clock': ['clock.set', 'retry.wait'],
    'fault-injection': ['fault.system-message-writes', 'fault.tool-output-writes', 'tool-output.held', 'fault.crash'],
    pty: ['pty.overlay.set', 'pty.environment'],
    'host-env': ['host.env.set'],
    'manual-compaction': ['compaction.request'],
    reconcile: ['context.reconcile'],
    'history-paging': ['history.page'],
    ...(profile.offersInboxFreePrompts() ? { 'busy-submit': ['prompt.submit'] } : {}),
  };
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
