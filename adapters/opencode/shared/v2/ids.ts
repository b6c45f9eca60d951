import { createHash } from 'node:crypto';

/**
 * OpenCode's IDs carry a type prefix (`ses…`, `msg_…`); the kit's may not. A kit ID is wrapped in
 * a marked prefix and unwrapped on the way back, so the mapping survives restarts without state.
 * One server serves many scenarios whose kit IDs repeat (`s1`, `p1`), so the prefix also holds
 * the scenario's namespace, taken from its store: the same after a restart, another for each store.
 */
const SESSION_MARK = 'ses_kit_';
const MESSAGE_MARK = 'msg_kit_';
const NAMESPACE_LENGTH = 8;

/** The namespace of a scenario's IDs, from its store directory. */
export function idNamespace(storeDir: string): string {
  return createHash('sha256').update(storeDir).digest('hex').slice(0, NAMESPACE_LENGTH);
}

const wrap = (mark: string, namespace: string, kitId: string) => `${mark}${namespace}_${kitId}`;
const unwrap = (mark: string, id: string) => (id.startsWith(mark) ? id.slice(mark.length + NAMESPACE_LENGTH + 1) : id);

export const opencodeSessionId = (namespace: string, kitId: string) =>
  kitId.startsWith('ses') ? kitId : wrap(SESSION_MARK, namespace, kitId);
export const opencodeMessageId = (namespace: string, kitId: string) => wrap(MESSAGE_MARK, namespace, kitId);
export const kitMessageId = (id: string) => unwrap(MESSAGE_MARK, id);
